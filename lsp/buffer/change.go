package buffer

import (
	"fmt"
	"math"

	"go.lsp.dev/protocol"
)

// Change is one entry of didChange's contentChanges. Range is nil
// for a full-text replacement (protocol.TextDocumentContentChangeEvent
// cannot tell a missing range from an empty one at 0:0). Its numbers are
// read as signed, so that a negative one is reported rather than failing
// the decoding of the whole notification.
type Change struct {
	Range *WireRange `json:"range,omitempty"`
	Text  string     `json:"text"`
}

// WirePosition is an LSP position as the client sent it: line and
// character signed and wide, so that a bad one is rejected by
// ApplyChanges rather than failing the decoding.
type WirePosition struct {
	Line      int64 `json:"line"`
	Character int64 `json:"character"`
}

// WireRange is an LSP range of WirePositions.
type WireRange struct {
	Start WirePosition `json:"start"`
	End   WirePosition `json:"end"`
}

// Edit is one applied change in bytes of the content it was applied to:
// bytes [Start, End) replaced by Text.
type Edit struct {
	Start, End int
	Text       string
}

// ApplyChanges applies changes in order to t and returns the new text and
// the byte edits, each relative to the text before it (the same order, so
// they can be replayed on anchors); t is unchanged. A change whose range
// is not in the document (a negative number, a line past the last, an end
// before its start) rejects the whole list: err says which, and t is
// returned. A character past its line's end clamps to the end of the
// line, as LSP says; warnings lists those. Each change costs a look-up of
// its two positions and a copy of the chunks it touches, not of the text
// (text.go).
func ApplyChanges(t *Text, changes []Change) (out *Text, edits []Edit, warnings []string, err error) {
	out = t
	for i, ch := range changes {
		if ch.Range == nil {
			edits = append(edits, Edit{Start: 0, End: out.Len(), Text: ch.Text})
			out = New([]byte(ch.Text))
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
		if _, exact := out.OffsetOf(protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)}); !exact {
			warnings = append(warnings, fmt.Sprintf("change %d: start %d:%d clamped to its line", i+1, r.Start.Line, r.Start.Character))
		}
		edits = append(edits, Edit{Start: start, End: end, Text: ch.Text})
		out = out.replace(start, end, ch.Text)
	}
	return out, edits, warnings, nil
}

// offsetOfWire is OffsetOf for a position as the client sent it: an error
// when it is negative or past the document's last line.
func offsetOfWire(t *Text, p WirePosition) (int, error) {
	if p.Line < 0 || p.Character < 0 || p.Line > math.MaxUint32 || p.Character > math.MaxUint32 {
		return 0, fmt.Errorf("%d:%d is not a position", p.Line, p.Character)
	}
	if _, ok := t.LineStart(int(p.Line)); !ok {
		return 0, fmt.Errorf("line %d is past the end of the document (%d bytes)", p.Line, t.Len())
	}
	off, _ := t.OffsetOf(protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)})
	return off, nil
}
