package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFeedbackIDFKeptPerSnapshot: the feedback terms' weights read from
// the cache are those looked up, and an edit (a new bleve snapshot)
// gives the weights of the index after it.
func TestFeedbackIDFKeptPerSnapshot(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "rank_feedback.txtar")
	terms := []string{"zqfeedbackword", "func", "return"}
	first := f.ix.Snapshot().contentIDF(ctx, terms)
	again := f.ix.Snapshot().contentIDF(ctx, terms)
	for i := range terms {
		if again[i] != first[i] {
			t.Fatalf("%s: %v from the cache, %v looked up", terms[i], again[i], first[i])
		}
	}
	if err := os.WriteFile(filepath.Join(f.root, "added.go"), []byte("package added\n\n// zqfeedbackword\nfunc zqfeedbackword() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.ix.WaitFor(ctx, f.ix.Changed("added.go"))
	after := f.ix.Snapshot().contentIDF(ctx, terms)
	if after[0] >= first[0] {
		t.Fatalf("a term one more chunk holds weighs %v after the edit, %v before: the cache kept the old snapshot's", after[0], first[0])
	}
	f.ix.idf.put(nil, nil, nil) // the cache emptied: every weight looked up
	fresh := f.ix.Snapshot().contentIDF(ctx, terms)
	for i := range terms {
		if after[i] != fresh[i] {
			t.Fatalf("%s after the edit: %v from the cache, %v looked up", terms[i], after[i], fresh[i])
		}
	}
}
