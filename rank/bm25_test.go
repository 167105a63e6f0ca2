package rank

import (
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
		tm := newTermMatcher([]string{c.term}, nil, nil)
		tm.scan([]byte(c.text), nil, nil)
		if got, _ := tm.count(0); got != c.want {
			t.Errorf("count(%q, %q) = %d, want %d", c.text, c.term, got, c.want)
		}
	}
	// Counted where coverage finds a term: its mask is coverage's.
	terms := []string{"librari", "run", "compar", "zzz"}
	tm := newTermMatcher(terms, nil, nil)
	tm.scan([]byte("library Libraries prune runner; ConstantTimeCompare\nlib/x.go"), nil, nil)
	got := make([]float64, len(terms))
	if mask, want := tm.textCounts(1, got), tm.mask(); mask != want {
		t.Errorf("textCounts' mask = %b, coverage's = %b", mask, want)
	}
	if got[0] != 2 || got[1] != 1 || got[2] != 1 || got[3] != 0 {
		t.Errorf("counts = %v, want [2 1 1 0]", got)
	}
	if got := tm.scan([]byte("maxTokenSize = 4 // the max_len"), nil, nil); got != 7 {
		t.Errorf("length = %d, want 7 (max Token Size 4 the max len)", got)
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
	p := &Plan{Terms: []string{"timer", "fire", "session"}}
	prm := Params{TextWeight: 1, BM25Symbol: 0}
	pc := newCoverer(pool).measure(pool, p, &prm)
	s := bm25(pc.lens, pc.counts, pc.names, []float64{1, 1, 1}, 3, 0.75, 0)
	if !(s[1] > s[0]) {
		t.Errorf("bm25: three words once (%.3f) not above one word ten times (%.3f)", s[1], s[0])
	}
	if !(s[1] > s[2]) {
		t.Errorf("bm25: the short chunk (%.3f) not above the same words in a long one (%.3f)", s[1], s[2])
	}
	// A unit's name counts symW times.
	pool[0].Meta.Symbol = "Session.Fire"
	prm.BM25Symbol = 5
	pc = newCoverer(pool).measure(pool, p, &prm)
	if w := bm25(pc.lens, pc.counts, pc.names, []float64{1, 1, 1}, 3, 0.75, 5); !(w[0] > s[0]) {
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
	text := []byte("func parseParams(params []string) // the parameters, as params")
	tm := newTermMatcher([]string{"paramet"}, nil, nil)
	tm.scan(text, nil, nil)
	if n, _ := tm.count(0); n != 1 {
		t.Errorf("count(paramet) = %d, want 1 (parameters)", n)
	}
	// "param" starts Params, params, parameters and params: the larger
	// count wins, the word's own is not added to it.
	tm = newTermMatcher([]string{"paramet"}, map[string][]string{"paramet": {"param"}}, nil)
	tm.scan(text, nil, nil)
	if n, _ := tm.count(0); n != 4 {
		t.Errorf("count(paramet, [param]) = %d, want 4", n)
	}
}

// A term on a comment line counts CommentWeight of one in code; the set
// of terms held counts both.
func TestTextCountsWeighComments(t *testing.T) {
	c := Cand{Path: "pool/steal.go", Language: "go", Text: []byte("// steal takes a task from another worker's queue.\nfunc steal(q *queue) *task { return q.popTask() }\n")}
	p := &Plan{Terms: []string{"task", "worker", "pool"}}
	var cv coverer
	ch := cv.add(c.Text, c.Path)
	tm := newTermMatcher(p.Terms, nil, nil)
	tm.scan(cv.text(ch), commentLines(c.Text, c.Language), nil)
	counts := make([]float64, len(p.Terms))
	mask := tm.textCounts(0.5, counts)
	// task: once in the comment, twice in code; worker: in the comment
	// only; pool: in the path.
	if counts[0] != 2.5 || counts[1] != 0.5 || counts[2] != 1 || mask != 0b111 {
		t.Errorf("textCounts = %v, mask %b; want [2.5 0.5 1], 111", counts, mask)
	}
	if tm.textCounts(1, counts); counts[0] != 3 {
		t.Errorf("textCounts at weight 1 = %v, want task 3", counts)
	}
}
