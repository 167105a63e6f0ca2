package store

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// segmentsOf lists the segments of the scorch index bi holds now.
func segmentsOf(t *testing.T, sc *scorch.Scorch) (segs []mergeplan.Segment, docs []uint64) {
	t.Helper()
	r, err := sc.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, s := range r.(*scorch.IndexSnapshot).Segments() {
		segs = append(segs, s)
		docs = append(docs, s.Count())
	}
	return segs, docs
}

// TestSmallBuildMergesAsItGoes: batches written with BuildMerger kicked
// after each, then Settle for a small build: every document is there, no
// segment is larger than a merge of buildGroup batches can make, and
// neither the build's plan nor scorch's steady plan (which runs at every
// open) has anything left to merge.
func TestSmallBuildMergesAsItGoes(t *testing.T) {
	const batchDocs, batches = 2000, 13
	bi, err := Open(filepath.Join(t.TempDir(), "bleve"))
	if err != nil {
		t.Fatal(err)
	}
	defer bi.Close()
	var p Persister
	var m BuildMerger
	for b := range batches {
		batch := bi.NewBatch()
		for i := range batchDocs {
			d := document.NewDocument(DocID(fmt.Sprintf("f%d.go", b), i))
			d.AddField(newCodeField(FieldContent, fmt.Appendf(nil, "batch%d doc%d", b, i)))
			batch.IndexAdvanced(d)
		}
		if err := p.Run(bi, batch); err != nil {
			t.Fatal(err)
		}
		m.Kick(t.Context(), bi, batchDocs)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	m.Wait()
	if err := Settle(t.Context(), bi, batchDocs); err != nil {
		t.Fatal(err)
	}
	if n, err := bi.DocCount(); err != nil || n != batchDocs*batches {
		t.Fatalf("%d documents (%v), want %d", n, err, batchDocs*batches)
	}
	segs, docs := segmentsOf(t, scorchOf(bi))
	for _, n := range docs {
		if n >= 6*batchDocs {
			t.Errorf("a segment of %d documents: merged more than once (segments %v)", n, docs)
		}
	}
	steady := mergeplan.DefaultMergePlanOptions
	for name, o := range map[string]*mergeplan.MergePlanOptions{"build": buildPolicy(batchDocs), "steady": &steady} {
		plan, err := mergeplan.Plan(segs, o)
		if err != nil {
			t.Fatal(err)
		}
		if plan != nil && len(plan.Tasks) > 0 {
			t.Errorf("after the settle the %s plan still merges %d groups (segments %v)", name, len(plan.Tasks), docs)
		}
	}
	t.Logf("segments after the settle: %v", docs)
	if len(segs) > batches/buildGroup+buildGroup+1 {
		t.Errorf("%d segments after the settle: %v", len(segs), docs)
	}
}
