package rank

import (
	"context"
	"math"
	"slices"
	"testing"
)

func TestFeedbackTerms(t *testing.T) {
	t.Parallel()
	prm := DefaultParams()
	texts := [][]byte{
		[]byte("// pickNext pops the worker's local runq, else calls stealWork on another worker's runq.\nfunc pickNext(w *worker) *task { return w.runq.pop() }"),
		[]byte("// fromSpool returns the next job of the spool.\nfunc fromSpool(p *printer) *job { return nil }"),
	}
	query := []string{"pick", "next", "task", "queue"}
	terms, weights := feedbackTerms(context.Background(), &prm, len(texts), func(i int) ([]byte, float64) { return texts[i], []float64{1, 0.01}[i] }, query, fakeIDF(feedbackDocs))
	if len(terms) != prm.FeedbackTerms || len(weights) != len(terms) {
		t.Fatalf("feedbackTerms = %v %v, want %d terms and weights", terms, weights, prm.FeedbackTerms)
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

// feedbackDocs stand for an index's chunks (index/testdata/rank_feedback.txtar).
var feedbackDocs = []string{
	"package sched\n// pickNext is how the scheduler picks the next runnable task: it pops the worker's local runq, and when that queue is empty it calls stealWork to take tasks from another worker's runq.\nfunc pickNext(w *worker) *task {\n\tif t := w.runq.pop(); t != nil {\n\t\treturn t\n\t}\n\treturn stealWork(w)\n}",
	"package sched\n// stealWork returns the next task from another worker's runq when this worker's own queue is empty. Peers are tried in order, and a steal is counted.\nfunc stealWork(w *worker) *task {\n\tfor _, v := range w.peers {\n\t\tif t := v.runq.pop(); t != nil {\n\t\t\tw.stolen++\n\t\t\treturn t\n\t\t}\n\t}\n\treturn nil\n}",
	"package print\n// fromSpool returns the next task from the printer's spool when its own queue is empty.\nfunc fromSpool(p *printer) *job {\n\tif len(p.spool) == 0 {\n\t\treturn nil\n\t}\n\treturn p.spool[0]\n}",
}

// fakeIDF is an IDF over docs, as index computes it over the content
// field: log(1 + n/(df+1)).
func fakeIDF(docs []string) IDF {
	return func(_ context.Context, terms []string) []float64 {
		w := make([]float64, len(terms))
		for i, t := range terms {
			df := 0
			for _, d := range docs {
				if slices.Contains(Terms(d), t) {
					df++
				}
			}
			w[i] = math.Log(1 + float64(len(docs))/float64(df+1))
		}
		return w
	}
}
