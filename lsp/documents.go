package lsp

import (
	"sync"

	"github.com/askls/askls/lsp/buffer"
	"go.lsp.dev/protocol"
)

// document is one open editor buffer. Its text is never modified in
// place: every change makes a new text (buffer.Text), sharing the chunks the
// change leaves alone, so a text (or its Bytes) handed to the index or to
// a reader stays as it was.
type document struct {
	uri     protocol.DocumentURI
	version int32
	text    *buffer.Text
	// outOfSync: an edit was rejected, so the client's buffer and this
	// content may differ; incremental edits are refused until a full
	// text (didOpen, or a change without a range) resynchronises it.
	outOfSync bool
}

// documents is the overlay of open buffers, keyed by URI. Safe for
// concurrent use.
type documents struct {
	mu   sync.Mutex
	open map[protocol.DocumentURI]*document
}

func newDocuments() *documents {
	return &documents{open: map[protocol.DocumentURI]*document{}}
}

func (d *documents) get(u protocol.DocumentURI) (document, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.open[u]
	if !ok {
		return document{}, false
	}
	return *doc, true
}

func (d *documents) all() []document {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]document, 0, len(d.open))
	for _, doc := range d.open {
		out = append(out, *doc)
	}
	return out
}

func (d *documents) set(u protocol.DocumentURI, version int32, t *buffer.Text) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.open[u] = &document{uri: u, version: version, text: t}
}

// markOutOfSync flags u's content as no longer the client's (see
// document.outOfSync); it reports whether u was in step until now.
func (d *documents) markOutOfSync(u protocol.DocumentURI) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc, ok := d.open[u]
	if !ok || doc.outOfSync {
		return false
	}
	c := *doc
	c.outOfSync = true
	d.open[u] = &c
	return true
}

func (d *documents) remove(u protocol.DocumentURI) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.open[u]
	delete(d.open, u)
	return ok
}
