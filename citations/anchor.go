package citations

import "bytes"

// Edit replaces the bytes StartByte..EndByte of the old content with
// NewText (an LSP incremental change, converted to byte offsets).
type Edit struct {
	StartByte, EndByte int
	NewText            string
}

// Anchor keeps one citation pointing at the same code while its file is
// edited: an edit before it shifts it, an edit after it leaves it, an edit
// that touches its own bytes marks it stale.
type Anchor struct {
	c       Citation
	content []byte
}

// NewAnchor starts tracking c in a file whose content is content.
func NewAnchor(c Citation, content []byte) *Anchor {
	if c.StartByte == 0 && c.EndByte == 0 && c.Start > 0 {
		c.StartByte, c.EndByte = LineSpan(content, c.Start, c.End)
	}
	return &Anchor{c: c, content: append([]byte(nil), content...)}
}

// Citation returns the citation as it is now.
func (a *Anchor) Citation() Citation { return a.c }

// Content returns the file content the anchor has reached after its edits.
func (a *Anchor) Content() []byte { return a.content }

// Apply moves the citation through one edit (offsets in the content before
// the edit). Edits out of range are clamped.
func (a *Anchor) Apply(e Edit) {
	n := len(a.content)
	if e.StartByte < 0 {
		e.StartByte = 0
	}
	if e.EndByte > n {
		e.EndByte = n
	}
	if e.StartByte > n {
		e.StartByte = n
	}
	if e.EndByte < e.StartByte {
		e.EndByte = e.StartByte
	}
	delta := len(e.NewText) - (e.EndByte - e.StartByte)

	c := &a.c
	switch {
	case e.EndByte < c.StartByte,
		e.EndByte == c.StartByte && a.lineStartAfter(e):
		// Before the citation, and its first line still starts a line.
		c.StartByte += delta
		c.EndByte += delta
	case e.StartByte > c.EndByte,
		e.StartByte == c.EndByte && a.lineEndAfter(e):
		// After the citation, and its last line still ends there.
	default:
		// The edit touches the cited lines.
		c.Stale = true
		if e.StartByte < c.StartByte {
			c.StartByte = e.StartByte
		}
		c.EndByte += delta
		if c.EndByte < c.StartByte {
			c.EndByte = c.StartByte
		}
	}
	next := make([]byte, 0, n+delta)
	next = append(next, a.content[:e.StartByte]...)
	next = append(next, e.NewText...)
	next = append(next, a.content[e.EndByte:]...)
	a.content = next
	// Recompute the lines from the bytes: exact whatever the edit was.
	c.Start = bytes.Count(a.content[:c.StartByte], []byte{'\n'}) + 1
	c.End = c.Start + bytes.Count(a.content[c.StartByte:c.EndByte], []byte{'\n'})
}

// lineStartAfter reports whether, after e (which ends at the citation's
// first byte), that byte still begins a line.
func (a *Anchor) lineStartAfter(e Edit) bool {
	if e.NewText != "" {
		return e.NewText[len(e.NewText)-1] == '\n'
	}
	return e.StartByte == 0 || a.content[e.StartByte-1] == '\n'
}

// lineEndAfter reports whether, after e (which starts at the citation's
// end), the citation's last line still ends there.
func (a *Anchor) lineEndAfter(e Edit) bool {
	if e.NewText != "" {
		return e.NewText[0] == '\n'
	}
	return e.EndByte == len(a.content) || a.content[e.EndByte] == '\n'
}
