package rank

import (
	"bytes"
	"math"
	"testing"
)

func TestCountWordStarts(t *testing.T) {
	for _, c := range []struct {
		text, term string
		want       int
	}{
		{"ConstantTimeCompare compare recompare", "compar", 2},
		{"session sessions expiredSession", "session", 3},
		{"prune run runner", "run", 2},
		{"", "x", 0},
	} {
		var cv coverer
		orig, low := cv.texts(cv.add([]byte(c.text), ""))
		if got, _ := wordStartsSplit(orig, low, c.term, nil); got != c.want {
			t.Errorf("wordStartsSplit(%q, %q) = %d, want %d", c.text, c.term, got, c.want)
		}
	}
	// Counted where holds finds a term: its mask is holds'.
	var cv coverer
	terms := []string{"librari", "run", "compar", "zzz"}
	ch := cv.add([]byte("library Libraries prune runner; ConstantTimeCompare"), "lib/x.go")
	var mask uint64
	got, _ := cv.counts(ch, terms, nil, nil)
	for i, n := range got {
		if n > 0 {
			mask |= 1 << i
		}
	}
	if want := cv.holds(ch, terms); mask != want {
		t.Errorf("counts' mask = %b, holds = %b", mask, want)
	}
	if got[0] != 2 || got[1] != 1 || got[2] != 1 || got[3] != 0 {
		t.Errorf("counts = %v, want [2 1 1 0]", got)
	}
	if got := wordStarts([]byte("maxTokenSize = 4 // the max_len")); got != 7 {
		t.Errorf("wordStarts = %d, want 7 (max Token Size 4 the max len)", got)
	}
}

// A term's count saturates: a chunk saying one word ten times scores
// below one that holds three of the question's words once each, and a
// chunk's length is weighed against the pool's average.
func TestBM25SaturatesAndWeighsLength(t *testing.T) {
	pool := []Cand{
		{Path: "a.go", Text: []byte("timer timer timer timer timer timer timer timer timer timer")},
		{Path: "b.go", Text: []byte("the timer fires and the session expires")},
		{Path: "c.go", Text: []byte("timer fires session " + longFiller(200))},
	}
	var cv coverer
	for i := range pool {
		cv.add(pool[i].Text, pool[i].Path)
	}
	terms := []string{"timer", "fire", "session"}
	var counts [][]float64
	for i := range pool {
		var f []float64
		code, _ := cv.counts(i, terms, nil, nil)
		for _, n := range code {
			f = append(f, float64(n))
		}
		counts = append(counts, f)
	}
	s := cv.bm25(pool, terms, nil, counts, []float64{1, 1, 1}, 3, 0.75, 0)
	if !(s[1] > s[0]) {
		t.Errorf("bm25: three words once (%.3f) not above one word ten times (%.3f)", s[1], s[0])
	}
	if !(s[1] > s[2]) {
		t.Errorf("bm25: the short chunk (%.3f) not above the same words in a long one (%.3f)", s[1], s[2])
	}
	// A unit's name counts symW times.
	pool[0].Meta.Symbol = "Session.Fire"
	if w := cv.bm25(pool, terms, nil, counts, []float64{1, 1, 1}, 3, 0.75, 5); !(w[0] > s[0]) {
		t.Errorf("bm25 with the name %q: %.3f, want above %.3f", pool[0].Meta.Symbol, w[0], s[0])
	}
}

func longFiller(n int) string {
	b := make([]byte, 0, n*6)
	for range n {
		b = append(b, "word "...)
	}
	return string(b)
}

// textScores mixes the two scores as shares of the pool's best and
// keeps what earlier stages did to a candidate's score.
func TestTextScoresKeepEarlierFactors(t *testing.T) {
	pool := []Cand{{Base: 2, Score: 2 * 0.25}, {Base: 1, Score: 1}}
	textScores(pool, []float64{1, 4}, 0.5)
	// 0: (0.5×2/2 + 0.5×1/4) × 2 = 1.25, × its prior 0.25.
	// 1: (0.5×1/2 + 0.5×4/4) × 2 = 1.5.
	for i, want := range []float64{1.25 * 0.25, 1.5} {
		if math.Abs(pool[i].Score-want) > 1e-9 {
			t.Errorf("candidate %d: score %.4f, want %.4f", i, pool[i].Score, want)
		}
	}
}

func TestCountTermCountsAnAbbreviationAsTheWord(t *testing.T) {
	orig := []byte("func parseParams(params []string) // the parameters, as params")
	low := bytes.ToLower(orig)
	if n, _ := countTerm(orig, low, "paramet", nil, nil); n != 1 {
		t.Errorf("countTerm(paramet) = %d, want 1 (parameters)", n)
	}
	// "param" starts Params, params, parameters and params: the larger
	// count wins, the word's own is not added to it.
	if n, _ := countTerm(orig, low, "paramet", []string{"param"}, nil); n != 4 {
		t.Errorf("countTerm(paramet, [param]) = %d, want 4", n)
	}
}

// A term on a comment line counts CommentWeight of one in code; the set
// of terms held counts both.
func TestTextCountsWeighComments(t *testing.T) {
	c := Cand{Path: "pool/steal.go", Language: "go", Text: []byte("// steal takes a task from another worker's queue.\nfunc steal(q *queue) *task { return q.popTask() }\n")}
	p := &Plan{Terms: []string{"task", "worker", "pool"}}
	var cv coverer
	ch := cv.add(c.Text, c.Path)
	counts, mask := cv.textCounts(ch, &c, p, 0.5)
	// task: once in the comment, twice in code; worker: in the comment
	// only; pool: in the path.
	if counts[0] != 2.5 || counts[1] != 0.5 || counts[2] != 1 || mask != 0b111 {
		t.Errorf("textCounts = %v, mask %b; want [2.5 0.5 1], 111", counts, mask)
	}
	if again, _ := cv.textCounts(ch, &c, p, 1); again[0] != 3 {
		t.Errorf("textCounts at weight 1 = %v, want task 3", again)
	}
}
