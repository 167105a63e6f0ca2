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
