package retrieval

import (
	"fmt"
	"testing"

	"github.com/askls/askls/agent/unit"
)

// The ranked entries open with the best unit of the search's first hit,
// even when another unit holds more of the question's words; the
// definitions the question names (first) still come before it, and the
// rest follow by score.
func TestTheSearchsFirstHitLeadsTheAnswer(t *testing.T) {
	mk := func(path string, start int, score float64, top, first bool) *entry {
		u := unit.Unit{Path: path, Start: start, End: start + 9}
		return &entry{u: u, sp: unit.Span{Start: start, End: start + 9}, score: score, top: top, first: first}
	}
	c := &chooser{cands: []*entry{
		mk("b.go", 1, 0.9, false, false), // holds the most words
		mk("a.go", 1, 0.6, true, false),  // the first hit's weaker unit
		mk("a.go", 20, 0.7, true, false), // the first hit's best unit
		mk("c.go", 1, 0.8, false, false), //
		mk("d.go", 1, 0.5, false, true),  // a definition the question names
		mk("e.go", 1, 0, true, false),    // holds none of the words: never leads
	}}
	out, nFirst := c.pick()
	if nFirst != 1 || len(out) < 4 {
		t.Fatalf("pick() = %d entries, %d first", len(out), nFirst)
	}
	var got []string
	for _, e := range out[:4] {
		got = append(got, fmt.Sprintf("%s:%d", e.u.Path, e.u.Start))
	}
	want := []string{"d.go:1", "a.go:20", "b.go:1", "c.go:1"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("entries %v, want %v first", got, want)
		}
	}
}
