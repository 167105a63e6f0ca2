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
		if got := countWordStarts(orig, low, c.term); got != c.want {
			t.Errorf("countWordStarts(%q, %q) = %d, want %d", c.text, c.term, got, c.want)
		}
	}
	// Counted where holds finds a term: its mask is holds'.
	var cv coverer
	terms := []string{"librari", "run", "compar", "zzz"}
	ch := cv.add([]byte("library Libraries prune runner; ConstantTimeCompare"), "lib/x.go")
	if got, want := countMask(cv.counts(ch, terms, nil)), cv.holds(ch, terms); got != want {
		t.Errorf("countMask(counts) = %b, holds = %b", got, want)
	}
	if got := cv.counts(ch, terms, nil); got[0] != 2 || got[1] != 1 || got[2] != 1 || got[3] != 0 {
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
	var counts [][]int
	for i := range pool {
		counts = append(counts, cv.counts(i, terms, nil))
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
	if n := countTerm(orig, low, "paramet", nil); n != 1 {
		t.Errorf("countTerm(paramet) = %d, want 1 (parameters)", n)
	}
	// "param" starts Params, params, parameters and params: the larger
	// count wins, the word's own is not added to it.
	if n := countTerm(orig, low, "paramet", []string{"param"}); n != 4 {
		t.Errorf("countTerm(paramet, [param]) = %d, want 4", n)
	}
}
