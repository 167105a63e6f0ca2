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
	open    map[string]Text // never modified: a new Text per change
	lastGen uint64          // generation of the latest edit handed to the index
	// oversized is handed to the index for a buffer over its size limit
	// (which holds none of it): zero bytes, one longer than the limit of
	// the index it was last made for, never written to.
	oversized []byte
}

// Text is an open buffer's text as a front end holds it, never changed
// once handed over. Bytes is called only when the index may hold the text
// (it is within the size limit), so a front end may keep a long text in
// a form that is cheap to edit and costly to join (the language server's
// chunks).
type Text interface {
	Len() int
	Bytes() []byte
}

// bytesText is a Text that is already one slice.
type bytesText []byte

func (b bytesText) Len() int      { return len(b) }
func (b bytesText) Bytes() []byte { return b }

// SetBuffer makes content the text of file abs as the editor has it (it
// was opened or edited): Read, Grep and Outline of every later snapshot
// see it at once, search from the generation LastEdit then says. A file
// outside the roots is kept, not indexed. content must not be modified
// afterwards.
func (w *Workspace) SetBuffer(abs string, content []byte) {
	w.SetBufferText(abs, bytesText(content))
}

// SetBufferText is SetBuffer for a Text: one over the index's size limit
// (index.Index.MaxFileBytes) is never joined, as the index holds none of
// it.
func (w *Workspace) SetBufferText(abs string, t Text) {
	b := &w.buffers
	b.mu.Lock()
	defer b.mu.Unlock()
	b.open[abs] = t
	ix := w.Current()
	if ix == nil {
		return // handed over when the index opens (publish)
	}
	if path, ok := ix.Rel(abs); ok {
		b.noteGen(b.update(ix, path, t))
	} else {
		w.log.Debug("document is outside the workspace roots; not indexed", "path", abs)
	}
}

// update hands t to ix as the buffer of path. Caller holds mu.
func (b *buffers) update(ix *index.Index, path string, t Text) uint64 {
	max := ix.MaxFileBytes()
	if int64(t.Len()) <= max {
		return ix.Update(path, t.Bytes())
	}
	if int64(len(b.oversized)) != max+1 {
		b.oversized = make([]byte, max+1)
	}
	return ix.Update(path, b.oversized)
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
	for abs, t := range b.open {
		if path, ok := ix.Rel(abs); ok {
			b.noteGen(b.update(ix, path, t))
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
