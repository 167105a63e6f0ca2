package lsp

import (
	"fmt"
	"math"
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

func (d *documents) set(u protocol.DocumentURI, version int32, content []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.open[u] = &document{uri: u, version: version, content: content}
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

// contentChange is one entry of didChange's contentChanges. Range is nil
// for a full-text replacement (protocol.TextDocumentContentChangeEvent
// cannot tell a missing range from an empty one at 0:0). Its numbers are
// read as signed, so that a negative one is reported rather than failing
// the decoding of the whole notification.
type contentChange struct {
	Range *wireRange `json:"range,omitempty"`
	Text  string     `json:"text"`
}

type wirePos struct {
	Line      int64 `json:"line"`
	Character int64 `json:"character"`
}

type wireRange struct {
	Start wirePos `json:"start"`
	End   wirePos `json:"end"`
}

// edit is one applied change in bytes of the content it was applied to.
type edit struct {
	start, end int
	text       string
}

// applyChanges applies changes in order to content and returns the new
// content and the byte edits, each relative to the content before it (the
// same order, so they can be replayed on anchors). A change whose range is
// not in the document (a negative number, a line past the last, an end
// before its start) rejects the whole list: err says which, and nothing
// is applied. A character past its line's end clamps to the end of the
// line, as LSP says; warnings lists those.
func applyChanges(content []byte, changes []contentChange) (out []byte, edits []edit, warnings []string, err error) {
	out = content
	for i, ch := range changes {
		if ch.Range == nil {
			edits = append(edits, edit{start: 0, end: len(out), text: ch.Text})
			out = []byte(ch.Text)
			continue
		}
		r := *ch.Range
		start, err := offsetOfWire(out, r.Start)
		if err != nil {
			return content, nil, nil, fmt.Errorf("change %d: start %w", i+1, err)
		}
		end, err := offsetOfWire(out, r.End)
		if err != nil {
			return content, nil, nil, fmt.Errorf("change %d: end %w", i+1, err)
		}
		if end < start {
			return content, nil, nil, fmt.Errorf("change %d: the range ends (%d:%d) before it starts (%d:%d)", i+1,
				r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
		}
		if _, exact := offsetOf(out, protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)}); !exact {
			warnings = append(warnings, fmt.Sprintf("change %d: start %d:%d clamped to its line", i+1, r.Start.Line, r.Start.Character))
		}
		next := make([]byte, 0, len(out)-(end-start)+len(ch.Text))
		next = append(next, out[:start]...)
		next = append(next, ch.Text...)
		next = append(next, out[end:]...)
		edits = append(edits, edit{start: start, end: end, text: ch.Text})
		out = next
	}
	return out, edits, warnings, nil
}

// offsetOfWire is offsetOf for a position as the client sent it: an error
// when it is negative or past the document's last line.
func offsetOfWire(content []byte, p wirePos) (int, error) {
	if p.Line < 0 || p.Character < 0 || p.Line > math.MaxUint32 || p.Character > math.MaxUint32 {
		return 0, fmt.Errorf("%d:%d is not a position", p.Line, p.Character)
	}
	if _, ok := lineStart(content, int(p.Line)); !ok {
		return 0, fmt.Errorf("line %d is past the end of the document (%d bytes)", p.Line, len(content))
	}
	off, _ := offsetOf(content, protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)})
	return off, nil
}
