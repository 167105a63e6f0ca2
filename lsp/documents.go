package lsp

import (
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
)

// document is one open editor buffer. Its content is never modified in
// place: every change makes a new slice, so a slice handed to the index or
// to a snapshot stays valid.
type document struct {
	uri     protocol.DocumentURI
	version int32
	content []byte
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

func (d *documents) set(u protocol.DocumentURI, version int32, content []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.open[u] = &document{uri: u, version: version, content: content}
}

func (d *documents) remove(u protocol.DocumentURI) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.open[u]
	delete(d.open, u)
	return ok
}

// contentChange is one entry of didChange's contentChanges. Range is nil
// for a full-text replacement (protocol.TextDocumentContentChangeEvent
// cannot tell a missing range from an empty one at 0:0).
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// edit is one applied change in bytes of the content it was applied to.
type edit struct {
	start, end int
	text       string
}

// applyChanges applies changes in order to content and returns the new
// content and the byte edits, each relative to the content before it (the
// same order, so they can be replayed on anchors). warnings lists ranges
// that had to be clamped.
func applyChanges(content []byte, changes []contentChange) (out []byte, edits []edit, warnings []string) {
	out = content
	for i, ch := range changes {
		if ch.Range == nil {
			edits = append(edits, edit{start: 0, end: len(out), text: ch.Text})
			out = []byte(ch.Text)
			continue
		}
		start, okS := offsetOf(out, ch.Range.Start)
		end, okE := offsetOf(out, ch.Range.End)
		if !okS || !okE {
			warnings = append(warnings, fmt.Sprintf("change %d: range %d:%d-%d:%d is outside the document (%d bytes); clamped",
				i, ch.Range.Start.Line, ch.Range.Start.Character, ch.Range.End.Line, ch.Range.End.Character, len(out)))
		}
		if end < start {
			start, end = end, start
			warnings = append(warnings, fmt.Sprintf("change %d: range end before start; swapped", i))
		}
		next := make([]byte, 0, len(out)-(end-start)+len(ch.Text))
		next = append(next, out[:start]...)
		next = append(next, ch.Text...)
		next = append(next, out[end:]...)
		edits = append(edits, edit{start: start, end: end, text: ch.Text})
		out = next
	}
	return out, edits, warnings
}
