package retrieval

import (
	"testing"

	"github.com/askls/askls/agent/unit"
)

// The weak line reads the first five entries: a fourth entry of a file
// already shown, which sameFile put below two other files' entries, is
// evidence too.
func TestWeakReadsTheFirstFiveEntries(t *testing.T) {
	terms := []unit.Term{{Word: "retry", Stem: "retri"}, {Word: "dial", Stem: "dial"}}
	entries := func(shares ...float64) []entry {
		var out []entry
		for _, s := range shares {
			out = append(out, entry{share: s})
		}
		return out
	}
	if !isWeak(entries(0.05, 0.05, 0.05, 0.05, 0.05, 0.9), 0, terms) {
		t.Error("no evidence in the first five: not weak")
	}
	if isWeak(entries(0.05, 0.05, 0.05, 0.4), 0, terms) {
		t.Error("the fourth entry holds 40% of the question: weak")
	}
	if isWeak(entries(0.05), 1, terms) {
		t.Error("a question that names a definition is never weak")
	}
}
