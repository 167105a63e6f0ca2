package rank

import (
	"testing"

	"github.com/askls/askls/index/chunk"
)

// A merged chunk is narrowed to the unit whose code holds the question's
// words, not to the one whose comment repeats them (CommentWeight).
func TestNarrowWeighsComments(t *testing.T) {
	text := []byte(`// Flush: the buffer is written out when the buffer is full.
func Flush() { w.Sync() }
func drain(buffer []byte) { for full(buffer) { buffer = writeOut(buffer) } }
`)
	c := Cand{Path: "io/buf.go", Language: "go", Meta: chunk.Meta{Start: 1, End: 3, Parts: []chunk.Part{
		{Start: 1, End: 2, Symbol: "Flush", Kind: "func"},
		{Start: 3, End: 3, Symbol: "drain", Kind: "func"},
	}}}
	p, err := ParseQuery("where is the buffer written out when it is full")
	if err != nil {
		t.Fatal(err)
	}
	prm := DefaultParams()
	prm.NarrowKeep = 0
	if u, _ := Narrow(p, &prm, c, text); u.Symbol != "drain" {
		t.Errorf("Narrow = %s, want drain", u.Symbol)
	}
	prm.CommentWeight = 1 // the premise: comments counted alike, the comment's unit wins
	if u, _ := Narrow(p, &prm, c, text); u.Symbol != "Flush" {
		t.Errorf("with comments counted alike, Narrow = %s, want Flush", u.Symbol)
	}
}

// A lookup of a name merged below its caller is narrowed to the name's
// definition: the caller holds the name as often and comes first.
func TestNarrowToTheUnitALookupNames(t *testing.T) {
	text := []byte(`def run_job(job_spec):
    name, opts = split_job_spec(job_spec)
    return launch(name, opts, job_spec)
def split_job_spec(s):
    return s.split(":", 1)
`)
	c := Cand{Path: "jobs/runner.py", Language: "python", Meta: chunk.Meta{Start: 1, End: 5, Parts: []chunk.Part{
		{Start: 1, End: 3, Symbol: "Runner.run_job", Kind: "method"},
		{Start: 4, End: 5, Symbol: "Runner.split_job_spec", Kind: "method"},
	}}}
	prm := DefaultParams()
	for _, q := range []string{"split_job_spec", "`split_job_spec`", "where is split_job_spec"} {
		p, err := ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		if u, _ := Narrow(p, &prm, c, text); u.Symbol != "Runner.split_job_spec" {
			t.Errorf("%q: Narrow = %s, want Runner.split_job_spec", q, u.Symbol)
		}
	}
}
