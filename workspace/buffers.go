package workspace

import (
	"sync"

	"github.com/askls/askls/index"
)

// buffers are the open editor buffers the index reads instead of the
// files on disk (its overlay), by absolute path, and the generation at
// which the latest edit is searchable. mu orders every change of a buffer
// with the publishing of a new index (publish), so that no edit is lost
// or applied out of order when the roots change.
type buffers struct {
	mu      sync.Mutex
	open    map[string][]byte // never modified in place: a new slice per change
	lastGen uint64            // generation of the latest edit handed to the index
}

// SetBuffer makes content the text of file abs as the editor has it (it
// was opened or edited): Read, Grep and Outline of every later snapshot
// see it at once, search from the generation LastEdit then says. A file
// outside the roots is kept, not indexed. content must not be modified
// afterwards.
func (w *Workspace) SetBuffer(abs string, content []byte) {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open[abs] = content
	ix := w.Current()
	if ix == nil {
		return // handed over when the index opens (publish)
	}
	if path, ok := ix.Rel(abs); ok {
		b.noteGen(ix.Update(path, content))
	} else {
		w.log.Debug("document is outside the workspace roots; not indexed", "path", abs)
	}
}

// CloseBuffer forgets the buffer of abs: the index reads the file from
// disk again.
func (w *Workspace) CloseBuffer(abs string) {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.open, abs)
	if ix := w.Current(); ix != nil {
		if path, ok := ix.Rel(abs); ok {
			b.noteGen(ix.Release(path))
		}
	}
}

// Changed tells the index that file abs changed on disk (saved, or
// changed by another program, as an editor's watcher reports). Like an
// edit, the change is noted in LastEdit: a question asked after it waits
// for it to be searchable.
func (w *Workspace) Changed(abs string) {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	if ix := w.Current(); ix != nil {
		if path, ok := ix.Rel(abs); ok {
			b.noteGen(ix.Changed(path))
		}
	}
}

// LastEdit is the generation at which the latest buffer change, or change
// on disk reported through Changed, is searchable (0 for none since the
// index opened).
func (w *Workspace) LastEdit() uint64 {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lastGen
}

// publish makes ix the workspace's index and hands it the open buffers in
// one step with respect to buffer changes.
func (w *Workspace) publish(ix *index.Index) {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	w.mu.Lock()
	w.ix = ix
	w.mu.Unlock()
	b.lastGen = 0 // generations count per index
	for abs, content := range b.open {
		if path, ok := ix.Rel(abs); ok {
			b.noteGen(ix.Update(path, content))
		}
	}
}

// noteGen records the generation at which the latest edit is searchable.
// Caller holds mu.
func (b *buffers) noteGen(gen uint64) {
	if gen > b.lastGen {
		b.lastGen = gen
	}
}
