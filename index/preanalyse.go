package index

import (
	"sync"

	"github.com/blevesearch/bleve/v2/document"
	bindex "github.com/blevesearch/bleve_index_api"
)

// analysedField is a text field analysed beforehand: its Analyze, called
// again by the index, does nothing.
type analysedField struct{ *document.TextField }

func (analysedField) Analyze() {}

// preAnalyse analyses d's text fields now, on the calling goroutine.
// scorch's offline builder analyses the documents of a batch under its
// lock, on one goroutine; with this, the sync workers do that work in
// parallel and the builder only builds segments. Only the term counts
// are kept (no token streams), which the collector scans cheaply.
func preAnalyse(d *document.Document) {
	for i, f := range d.Fields {
		t, ok := f.(*document.TextField)
		if !ok {
			continue
		}
		t.Analyze()
		d.Fields[i] = analysedField{t}
	}
}

var _ bindex.Field = analysedField{}

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
