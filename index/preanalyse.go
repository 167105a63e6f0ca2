package index

import (
	"sync"

	"github.com/blevesearch/bleve/v2/document"
)

// preAnalyse analyses d's fields now, on the calling goroutine (their
// Analyze, called again by the index, does nothing: see codeField).
// scorch's offline builder analyses the documents of a batch under its
// lock, on one goroutine; with this, the sync workers do that work in
// parallel and the builder only builds segments.
func preAnalyse(d *document.Document) {
	for _, f := range d.Fields {
		f.Analyze()
	}
}

// docBudget bounds the documents analysed but not yet handed to the
// builder: the workers outrun it, and analysed documents are large.
type docBudget struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int
	max  int
}

func newDocBudget(n int) *docBudget {
	b := &docBudget{free: n, max: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// take waits until n documents fit (a file with more than the whole
// budget waits for all of it) and returns what it took.
func (b *docBudget) take(n int) int {
	n = min(n, b.max)
	b.mu.Lock()
	for b.free < n {
		b.cond.Wait()
	}
	b.free -= n
	b.mu.Unlock()
	return n
}

// give returns n taken documents.
func (b *docBudget) give(n int) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}
