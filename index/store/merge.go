package store

import (
	"context"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// A first build writes one segment per batch; scorch merges them on one
// goroutine. Left to its steady plan (up to 10 segments of each size), the
// merger starts a merge of ten batches' segments only once a dozen wait,
// falls behind the builders, and is still merging when the last batch is
// written: the settle then waited 1.2-2.1 s on that one goroutine, most of
// what was left serial in a cold build of GOROOT/src (docs/kernel.md,
// "What is left serial"). A small build (batches of one size) instead asks
// for merges of five batches' segments as it goes (BuildMerger), never
// merges a segment twice (buildPolicy), and settles with that plan, so
// that little is left to merge when the last batch is written.

// buildGroup is how many batches' segments a build merge makes one of.
const buildGroup = 5

// buildPolicy is the merge plan of a small build whose batches hold
// batchDocs documents: segments of up to three batches are merged, five
// at a time, once more than five wait; the segments merges made (five
// batches) are left alone. Each document is merged once, as under the
// steady plan, in smaller merges.
func buildPolicy(batchDocs int) *mergeplan.MergePlanOptions {
	p := mergeplan.DefaultMergePlanOptions
	p.SegmentsPerMergeTask = buildGroup
	p.MaxSegmentsPerTier = buildGroup - 1
	p.FloorSegmentSize = int64(batchDocs)
	// Eligible: under half of this; a merge's segments sum to less.
	p.MaxSegmentSize = int64(6 * batchDocs)
	return &p
}

// BuildMerger asks scorch for the merges of buildPolicy while a first
// build runs (Kick after each batch). It is safe for concurrent use: the
// build's submitters share one.
type BuildMerger struct {
	mu   sync.Mutex
	busy map[*scorch.Scorch]bool
	wg   sync.WaitGroup
}

// Kick asks bi's merger for the merges buildPolicy plans now, in the
// background, unless a merge Kick asked for has not returned yet (the
// next Kick plans again).
func (m *BuildMerger) Kick(ctx context.Context, bi bleve.Index, batchDocs int) {
	sc := scorchOf(bi)
	if sc == nil {
		return
	}
	m.mu.Lock()
	if m.busy[sc] {
		m.mu.Unlock()
		return
	}
	if m.busy == nil {
		m.busy = map[*scorch.Scorch]bool{}
	}
	m.busy[sc] = true
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		// An error (the context ended, the index closed) leaves the
		// segments to the settle or to scorch's steady plan.
		_ = sc.ForceMerge(ctx, buildPolicy(batchDocs))
		m.mu.Lock()
		m.busy[sc] = false
		m.mu.Unlock()
	}()
}

// Wait blocks until the merges Kick asked for have returned.
func (m *BuildMerger) Wait() { m.wg.Wait() }

// Settle runs, for bi, the merges a first build leaves and waits for them,
// so that they do not run later beside the first edits and searches.
// After a small build (batchDocs > 0: all its batches held batchDocs
// documents, and BuildMerger merged them as it went) that is buildPolicy's
// plan, then scorch's steady plan (which runs at every open: nothing is
// left for it). After a larger one it is the settle plan below. The
// in-memory index Open falls back to is not scorch (bleve makes it with
// upsidedown): nothing to merge. A scorch index without a path would have
// no merger, and ForceMerge would wait for it for ever.
func Settle(ctx context.Context, bi bleve.Index, batchDocs int) error {
	sc := scorchOf(bi)
	if sc == nil {
		return nil // not scorch: nothing to merge
	}
	if batchDocs > 0 {
		if err := sc.ForceMerge(ctx, buildPolicy(batchDocs)); err != nil {
			return err
		}
		steady := mergeplan.DefaultMergePlanOptions
		return sc.ForceMerge(ctx, &steady)
	}
	policy := mergeplan.DefaultMergePlanOptions
	policy.MaxSegmentsPerTier = settleSegmentsPerTier
	policy.MaxSegmentSize = settleMaxSegmentDocs
	return sc.ForceMerge(ctx, &policy)
}

// settleSegmentsPerTier is how many segments of one size a settled index
// keeps after a large build (scorch's steady policy allows 10), and
// settleMaxSegmentDocs bounds the segments its merges make: only segments
// of fewer than half that many documents are merged, so that the settle
// merges the small segments the last batches leave and never rewrites
// the large ones, whatever the tree's size (docs/kernel.md, "Segments
// after a build").
const (
	settleSegmentsPerTier = 4
	settleMaxSegmentDocs  = 100000
)

// scorchOf is bi's scorch index, nil when bi is not one.
func scorchOf(bi bleve.Index) *scorch.Scorch {
	ai, err := bi.Advanced()
	if err != nil {
		return nil
	}
	sc, _ := ai.(*scorch.Scorch)
	return sc
}
