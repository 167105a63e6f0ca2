package index

import (
	"context"
	"slices"
	"testing"
)

func TestCoverage(t *testing.T) {
	t.Parallel()
	text := []byte("// ConstantTimeCompare returns 1 if the two slices have equal contents.\nfunc ConstantTimeCompare(x, y []byte) int {")
	ones := []float64{1, 1, 1, 1}
	cases := []struct {
		terms []string
		want  float64
	}{
		{[]string{"compar", "slice", "two", "leak"}, 0.75},   // stems match word starts and identifier parts
		{[]string{"run", "ten", "ant", "leak"}, 0},           // inside a word ("returns", "contents", "Constant") does not count
		{[]string{"subtl", "constant", "time", "xyz"}, 0.75}, // the path counts
		{[]string{"librari", "equal", "byte", "int"}, 0.75},  // "librari" would need "library"
	}
	for _, c := range cases {
		if got := coverageOf(text, "crypto/subtle/constant_time.go", c.terms, ones); got != c.want {
			t.Errorf("coverage(%v) = %v, want %v", c.terms, got, c.want)
		}
	}
	if got := coverageOf([]byte("a library of helpers"), "x.go", []string{"librari"}, []float64{1}); got != 1 {
		t.Errorf("stem ending in i: coverage = %v, want 1", got)
	}
	if got := coverageOf(text, "x.go", []string{"compar", "leak"}, []float64{3, 1}); got != 0.75 {
		t.Errorf("weighted coverage = %v, want 0.75", got)
	}
}

func TestSearchQualifiedNameAndCoverage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank.txtar")
	for _, c := range []struct{ q, path string }{
		// errs.Is: the Is defined under errs/, not the other Is in a
		// file that says "errs" more often.
		{"how does errs.Is compare an error with its target", "errs/wrap.go"},
		// A question: the chunk holding most of its words wins over a
		// short one whose name holds two of them.
		{"why can a steady flow of new readers not starve a writer that waits on the reader/writer lock", "lock/rw.go"},
	} {
		hits := search(t, f.ix, c.q)
		if len(hits) == 0 || hits[0].Path != c.path {
			t.Errorf("Search(%q) = %v, want %s first", c.q, hits, c.path)
		}
	}
}

func TestSearchDropsQuestionEnglish(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_english.txtar")
	// "e.g.", "i.e." and the head of "doesn't" are in cache/doc.go's
	// comment, not in the function that answers the question.
	q := "which function removes the least recently used entry, e.g. when the cache doesn't have capacity left?"
	hits := search(t, f.ix, q)
	if len(hits) == 0 || hits[0].Path != "cache/evict.go" {
		t.Errorf("Search(%q) = %v, want cache/evict.go first", q, hits)
	}
	terms, _, _, _, _ := queryTerms("why doesn't it stop, e.g. when I’ve set i.e. the Go's limit vs. the rest")
	for _, bad := range []string{"doesn", "e.g", "i.e", "ve", "vs"} {
		if slices.Contains(terms, bad) {
			t.Errorf("queryTerms kept %q: %v", bad, terms)
		}
	}
	// Stop words are dropped in their stemmed form too: "does" is the
	// term "doe", which would find pci/doe.c for any question.
	terms, _, _, _, _ = queryTerms("how does this only work when it has been using the scheduler")
	for _, bad := range []string{"doe", "thi", "onli", "ha", "us"} {
		if slices.Contains(terms, bad) {
			t.Errorf("queryTerms kept %q: %v", bad, terms)
		}
	}
	q = "How does the scheduler choose the task that runs next?"
	if hits := search(t, f.ix, q); len(hits) == 0 || hits[0].Path != "sched/core.c" {
		t.Errorf("Search(%q) = %v, want sched/core.c first", q, hits)
	} else if slices.ContainsFunc(hits, func(h Hit) bool { return h.Path == "pci/doe.c" }) {
		t.Errorf("Search(%q) = %v: pci/doe.c holds only \"does\" of the question", q, hits)
	}
	// An apostrophe in code is not a contraction.
	if terms, _, _, _, _ := queryTerms("where is config['timeout'] read"); !slices.Contains(terms, "timeout") {
		t.Errorf("queryTerms dropped timeout: %v", terms)
	}
}

func TestSearchFeedback(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_feedback.txtar")
	q := "how does the scheduler choose the next runnable task when its queue is empty"
	order := func() []string {
		var ps []string
		for _, h := range search(t, f.ix, q) {
			ps = append(ps, h.Path)
		}
		return ps
	}
	// Feedback: steal.go shares the best chunk's vocabulary (runq,
	// worker, stealWork), spool.go does not.
	if got := order(); !slices.Equal(got[:3], []string{"sched/pick.go", "sched/steal.go", "print/spool.go"}) {
		t.Errorf("Search(%q) = %v, want pick.go, steal.go, spool.go", q, got)
	}
	// The fixture's premise: without feedback, spool.go comes first.
	f.ix.rank.FeedbackWeight = 0
	if got := order(); !slices.Equal(got[:3], []string{"sched/pick.go", "print/spool.go", "sched/steal.go"}) {
		t.Errorf("without feedback, Search(%q) = %v, want pick.go, spool.go, steal.go", q, got)
	}
}

func TestFeedbackTerms(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_feedback.txtar")
	s := f.ix.Snapshot()
	texts := [][]byte{
		[]byte("// pickNext pops the worker's local runq, else calls stealWork on another worker's runq.\nfunc pickNext(w *worker) *task { return w.runq.pop() }"),
		[]byte("// fromSpool returns the next job of the spool.\nfunc fromSpool(p *printer) *job { return nil }"),
	}
	query := []string{"pick", "next", "task", "queue"}
	terms, weights := s.feedbackTerms(context.Background(), len(texts), func(i int) ([]byte, float64) { return texts[i], []float64{1, 0.01}[i] }, query)
	if len(terms) != f.ix.rank.FeedbackTerms || len(weights) != len(terms) {
		t.Fatalf("feedbackTerms = %v %v, want %d terms and weights", terms, weights, f.ix.rank.FeedbackTerms)
	}
	for _, bad := range append(query, "the", "return", "func") {
		if slices.Contains(terms, bad) {
			t.Errorf("feedbackTerms kept %q: %v", bad, terms)
		}
	}
	// The best chunk's names lead (runq and worker twice each); the
	// low-scoring chunk's spool does not make it.
	for _, want := range []string{"runq", "worker"} {
		if !slices.Contains(terms[:2], want) {
			t.Errorf("feedbackTerms = %v, want %q in the first two", terms, want)
		}
	}
	if slices.Contains(terms, "spool") {
		t.Errorf("feedbackTerms = %v: spool comes from a chunk scoring 1/100 of the best", terms)
	}
	for i := 1; i < len(weights); i++ {
		if weights[i] > weights[i-1] {
			t.Errorf("weights not in decreasing order: %v", weights)
		}
	}
}

func TestSearchRankDoesNotDependOnLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank.txtar")
	// A small rerank pool: a limit of 1 then fetches more candidates
	// than the pool; every one of them must be reranked.
	f.ix.rank.RerankPool = 1
	q := "why can a steady flow of new readers not starve a writer that waits on the reader/writer lock"
	all, err := f.ix.Snapshot().Search(context.Background(), q, 10, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3} {
		hits, err := f.ix.Snapshot().Search(context.Background(), q, limit, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			if i >= len(all) || h.Path != all[i].Path || h.Start != all[i].Start || h.Score != all[i].Score {
				t.Errorf("limit %d: hit %d = %s:%d (%.4f), limit 10 had %v", limit, i, h.Path, h.Start, h.Score, all[i])
			}
		}
	}
}

// coverageOf is the coverage of one chunk.
func coverageOf(text []byte, path string, terms []string, weights []float64) float64 {
	var cv coverer
	return cv.coverage(cv.add(text, path), terms, weights)
}

// An identifier next to a non-ASCII letter is matched without a panic
// (the byte before it is not an ASCII identifier byte).
func TestHoldsIdentBesideNonASCII(t *testing.T) {
	if !holdsIdent([]byte("é foo"), "foo") || !holdsIdent([]byte("éfoo"), "foo") || holdsIdent([]byte("foobar"), "foo") {
		t.Error("holdsIdent beside non-ASCII text")
	}
}

// A term every reranked chunk holds weighs less in coverage than one few
// hold: of two chunks holding one term each, the one with the rare term
// covers more of the question.
func TestPoolIDFWeighsRareTermsMore(t *testing.T) {
	t.Parallel()
	// Terms: 0 "request" (all four chunks), 1 "retry" (chunk 0 only).
	masks := []uint64{0b10, 0b01, 0b01, 0b01}
	w := poolIDF(masks, 2)
	if !(w[1] > w[0]) {
		t.Fatalf("weights = %v, want the rare term heavier", w)
	}
	if rare, common := maskCoverage(0b10, w), maskCoverage(0b01, w); !(rare > common) {
		t.Errorf("coverage of the rare term %.3f, of the common one %.3f; want the rare one higher", rare, common)
	}
	if got := maskCoverage(0b11, w); got != 1 {
		t.Errorf("coverage of both terms = %v, want 1", got)
	}
}

// A chunk that holds none of the query's identifiers loses the whole
// ExactMissFactor in a lookup, and a share of it in a question.
func TestMissFactorFollowsTheIdentifiersShare(t *testing.T) {
	t.Parallel()
	if got := missFactor(0.3, 4, 4); got != 0.3 {
		t.Errorf("lookup: %v, want 0.3", got)
	}
	q := missFactor(0.3, 1, 10)
	if !(q > 0.85 && q < 0.9) {
		t.Errorf("one identifier in ten terms: %v, want 0.3^0.1 ≈ 0.886", q)
	}
	if got := missFactor(0.3, 0, 0); got != 0.3 {
		t.Errorf("no terms: %v, want the factor", got)
	}
}
