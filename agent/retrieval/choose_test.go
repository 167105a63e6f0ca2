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

// A container's window that runs into a unit already cited (an impl
// block's head and the first lines of its method) is not cited again;
// a window of it elsewhere is.
func TestAContainersWindowOverACitedUnitIsLeftOut(t *testing.T) {
	method := &entry{u: unit.Unit{Path: "a.rs", Start: 20, End: 40}, sp: unit.Span{Start: 30, End: 40}, score: 0.9, top: true}
	over := &entry{u: unit.Unit{Path: "a.rs", Start: 10, End: 100}, sp: unit.Span{Start: 15, End: 26}, score: 0.8}
	elsewhere := &entry{u: unit.Unit{Path: "a.rs", Start: 10, End: 100}, sp: unit.Span{Start: 60, End: 70}, score: 0.7}
	c := &chooser{cands: []*entry{method, over, elsewhere}}
	out, _ := c.pick()
	var got []string
	for _, e := range out {
		got = append(got, fmt.Sprintf("%d-%d", e.sp.Start, e.sp.End))
	}
	if fmt.Sprint(got) != "[30-40 60-70]" {
		t.Errorf("cited %v, want [30-40 60-70]", got)
	}
}
