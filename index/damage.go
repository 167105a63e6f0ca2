package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2"
)

// CheckStore verifies the segments of every root's persisted index, as
// Open does: call it when a search panicked. A damaged root is marked so
// that the next Open rebuilds it (with one log line); the error says which
// (ErrDamaged). Reopen the index to rebuild it now.
func (ix *Index) CheckStore() error {
	var errs []error
	for _, r := range ix.roots {
		if r.bi == nil {
			continue
		}
		if err := store.VerifySegments(r.bi); err != nil {
			errs = append(errs, fmt.Errorf("index of %s: %w", r.abs, err))
			if !r.temp {
				os.WriteFile(filepath.Join(r.cache, store.DamagedFile), []byte(err.Error()+"\n"), 0o644)
			}
		}
	}
	return errors.Join(errs...)
}

// guarded is a root's bleve index whose searches turn a panic from the
// store into an error: the segments are checked and, when damaged, the
// cache is marked for a rebuild and Options.OnDamaged is told.
type guarded struct {
	bleveIndex
	ix   *Index
	r    *root
	once *sync.Once
}

// bleveIndex names bleve.Index for embedding: a field named Index would
// hide bleve.Index's method Index.
type bleveIndex = bleve.Index

func (ix *Index) guard(r *root, bi bleve.Index) bleve.Index {
	return &guarded{bleveIndex: bi, ix: ix, r: r, once: &ix.damagedOnce}
}

func (g *guarded) Search(req *bleve.SearchRequest) (res *bleve.SearchResult, err error) {
	defer g.recover(&res, &err)
	return g.bleveIndex.Search(req)
}

func (g *guarded) SearchInContext(ctx context.Context, req *bleve.SearchRequest) (res *bleve.SearchResult, err error) {
	defer g.recover(&res, &err)
	return g.bleveIndex.SearchInContext(ctx, req)
}

// recover turns a panic of a search into its error.
func (g *guarded) recover(res **bleve.SearchResult, err *error) {
	p := recover()
	if p == nil {
		return
	}
	*res = nil
	verr := store.VerifySegments(g.bleveIndex)
	if verr == nil {
		*err = fmt.Errorf("index: the search panicked (%v); the index's segments check out", p)
		g.ix.log.Error("index: a search panicked", "root", g.r.abs, "panic", p)
		return
	}
	*err = fmt.Errorf("index of %s: %w", g.r.abs, verr)
	if !g.r.temp {
		os.WriteFile(filepath.Join(g.r.cache, store.DamagedFile), []byte(verr.Error()+"\n"), 0o644)
	}
	g.once.Do(func() {
		g.ix.log.Error("index: a search panicked on a damaged index; it is rebuilt when reopened", "root", g.r.abs, "err", verr)
		if g.ix.opts.OnDamaged != nil {
			g.ix.opts.OnDamaged(*err)
		}
	})
}
