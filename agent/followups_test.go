package agent

import (
	"strings"
	"testing"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/indextest"
)

// fixtureSnapshot is the real index over a txtar fixture of testdata.
func fixtureSnapshot(t *testing.T, name string) *index.Snapshot {
	t.Helper()
	return indextest.Snapshot(t, "testdata/"+name)
}

// TestFollowUpCitesOnlyTheDefinitionAndItsOccurrences: a follow-up that
// asks for the callers (or the uses) of the function the previous answer
// cited is answered by the definition and the lines that name it; code
// that only shares the question's words (a tmux wrapper that "calls", a
// parser that "matches") is not cited.
func TestFollowUpCitesOnlyTheDefinitionAndItsOccurrences(t *testing.T) {
	snap := fixtureSnapshot(t, "followups.txtar")
	for _, follow := range []string{"who calls that?", "where is it used?"} {
		res := askThreadChecked(t, snap, "where is `FuzzyMatch` defined?", follow)
		ans := res[1]
		if !strings.Contains(ans.Answer, "core/core.go:9") || !strings.Contains(ans.Answer, "core/core.go:20") {
			t.Errorf("%q: the two calls are not listed:\n%s", follow, ans.Answer)
		}
		for _, c := range ans.Citations {
			text, _ := snap.Content(c.Path)
			lines := strings.Split(string(text), "\n")
			cited := strings.Join(lines[c.Start-1:c.End], "\n")
			if !strings.Contains(cited, "FuzzyMatch") {
				t.Errorf("%q: [%d] %s:%d-%d does not name FuzzyMatch:\n%s", follow, c.N, c.Path, c.Start, c.End, ans.Answer)
			}
		}
	}
}
