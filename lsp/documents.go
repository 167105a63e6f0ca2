package lsp

import (
	"fmt"
	"math"
	"sync"

	"go.lsp.dev/protocol"
)

// document is one open editor buffer. Its text is never modified in
// place: every change makes a new text (text.go), sharing the chunks the
// change leaves alone, so a text (or its Bytes) handed to the index or to
// a reader stays as it was.
type document struct {
	uri     protocol.DocumentURI
	version int32
	text    *text
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

func (d *documents) set(u protocol.DocumentURI, version int32, t *text) {
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

// applyChanges applies changes in order to t and returns the new text and
// the byte edits, each relative to the text before it (the same order, so
// they can be replayed on anchors); t is unchanged. A change whose range
// is not in the document (a negative number, a line past the last, an end
// before its start) rejects the whole list: err says which, and t is
// returned. A character past its line's end clamps to the end of the
// line, as LSP says; warnings lists those. Each change costs a look-up of
// its two positions and a copy of the chunks it touches, not of the text
// (text.go).
func applyChanges(t *text, changes []contentChange) (out *text, edits []edit, warnings []string, err error) {
	out = t
	for i, ch := range changes {
		if ch.Range == nil {
			edits = append(edits, edit{start: 0, end: out.Len(), text: ch.Text})
			out = newText([]byte(ch.Text))
			continue
		}
		r := *ch.Range
		start, err := offsetOfWire(out, r.Start)
		if err != nil {
			return t, nil, nil, fmt.Errorf("change %d: start %w", i+1, err)
		}
		end, err := offsetOfWire(out, r.End)
		if err != nil {
			return t, nil, nil, fmt.Errorf("change %d: end %w", i+1, err)
		}
		if end < start {
			return t, nil, nil, fmt.Errorf("change %d: the range ends (%d:%d) before it starts (%d:%d)", i+1,
				r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
		}
		if _, exact := out.offsetOf(protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)}); !exact {
			warnings = append(warnings, fmt.Sprintf("change %d: start %d:%d clamped to its line", i+1, r.Start.Line, r.Start.Character))
		}
		edits = append(edits, edit{start: start, end: end, text: ch.Text})
		out = out.replace(start, end, ch.Text)
	}
	return out, edits, warnings, nil
}

// offsetOfWire is offsetOf for a position as the client sent it: an error
// when it is negative or past the document's last line.
func offsetOfWire(t *text, p wirePos) (int, error) {
	if p.Line < 0 || p.Character < 0 || p.Line > math.MaxUint32 || p.Character > math.MaxUint32 {
		return 0, fmt.Errorf("%d:%d is not a position", p.Line, p.Character)
	}
	if _, ok := t.lineStart(int(p.Line)); !ok {
		return 0, fmt.Errorf("line %d is past the end of the document (%d bytes)", p.Line, t.Len())
	}
	off, _ := t.offsetOf(protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)})
	return off, nil
}
