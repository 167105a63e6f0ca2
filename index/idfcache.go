package index

import (
	"sync"

	bindex "github.com/blevesearch/bleve_index_api"
)

// idfCache keeps the feedback terms' weights (contentIDF) of one bleve
// snapshot of the first root: a term's weight depends only on the
// snapshot's document count and the term's postings in it, and looking
// it up opens the term's postings in every segment (7 % of a reranked
// question's search on the kernel's 17 segments). The feedback terms
// are a chunk's common words (the questions of one code base share
// many), so a later question finds most of them here. The weights are
// those of the reader's snapshot: scorch makes a new one at every
// change (a batch, a merge, a segment persisted), and the cache starts
// over when the reader is another. It is safe for concurrent use.
type idfCache struct {
	mu   sync.Mutex
	snap bindex.IndexReader // the snapshot w is of (held, compared only)
	w    map[string]float64
}

// idfCacheTerms bounds the terms kept for one snapshot; past it the
// cache starts over.
const idfCacheTerms = 4096

// get returns term's weight in snapshot r, if known.
func (c *idfCache) get(r bindex.IndexReader, term string) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != r {
		return 0, false
	}
	w, ok := c.w[term]
	return w, ok
}

// put records the weights of terms in snapshot r.
func (c *idfCache) put(r bindex.IndexReader, terms []string, w []float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snap != r || len(c.w)+len(terms) > idfCacheTerms {
		c.snap, c.w = r, make(map[string]float64, len(terms))
	}
	for i, t := range terms {
		c.w[t] = w[i]
	}
}
