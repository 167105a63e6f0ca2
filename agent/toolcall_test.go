package agent

import (
	"strings"
	"testing"
)

func TestRefusalDoesNotRepeatALongQuestion(t *testing.T) {
	q := strings.Repeat("zzzz ", 800) // 4,000 characters (under MaxQuestionBytes), nothing matches
	got := ask(t, testAgent(nil, Config{NoModel: true}), project, q)
	if !got.res.Refused {
		t.Fatalf("not refused:\n%s", got.res.Answer)
	}
	if len(got.res.Answer) > 1000 || !strings.Contains(got.res.Answer, `search_code("zzzz zzzz`) || !strings.Contains(got.res.Answer, "…") {
		t.Errorf("refusal of %d characters:\n%.600s", len(got.res.Answer), got.res.Answer)
	}
}
