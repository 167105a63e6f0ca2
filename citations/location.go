package citations

import (
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Location resolves c to an LSP Location in the document uri whose current
// content is content. Columns count UTF-16 code units, as LSP requires. The
// range covers whole lines: from the start of line Start to the end of line
// End (its newline excluded), clamped to the content.
func Location(c Citation, uri string, content []byte) protocol.Location {
	start, end := c.StartByte, c.EndByte
	if start < 0 || end < start || end > len(content) || (start == 0 && end == 0 && c.Start > 1) {
		start, end = LineSpan(content, c.Start, c.End)
	}
	return protocol.Location{
		URI: protocol.DocumentURI(uri),
		Range: protocol.Range{
			Start: Position(content, start),
			End:   Position(content, end),
		},
	}
}

// Position converts a byte offset into content to an LSP position (0-based
// line, UTF-16 column). Offsets past the end clamp to the end; an offset in
// the middle of a UTF-8 sequence counts from the start of that rune.
func Position(content []byte, off int) protocol.Position {
	if off > len(content) {
		off = len(content)
	}
	if off < 0 {
		off = 0
	}
	line, lineStart := 0, 0
	for i := 0; i < off; i++ {
		if content[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	col := 0
	for i := lineStart; i < off; {
		r, size := utf8.DecodeRune(content[i:])
		if i+size > off {
			break
		}
		col += utf16Len(r)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// Offset converts an LSP position to a byte offset into content. A column
// past the end of its line clamps to the line end; a line past the end of
// the content clamps to len(content).
func Offset(content []byte, p protocol.Position) int {
	i := 0
	for line := uint32(0); line < p.Line; line++ {
		j := indexByte(content[i:], '\n')
		if j < 0 {
			return len(content)
		}
		i += j + 1
	}
	col := 0
	for i < len(content) && content[i] != '\n' && col < int(p.Character) {
		r, size := utf8.DecodeRune(content[i:])
		col += utf16Len(r)
		i += size
	}
	return i
}

func utf16Len(r rune) int {
	if r == utf8.RuneError {
		return 1
	}
	return len(utf16.Encode([]rune{r}))
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// LineSpan returns the byte offsets of lines start..end (1-based,
// inclusive, clamped): from the first byte of line start to the end of line
// end, its newline excluded.
func LineSpan(content []byte, start, end int) (int, int) {
	if start < 1 {
		start = 1
	}
	if end < start {
		end = start
	}
	line, s, e := 1, -1, len(content)
	if start == 1 {
		s = 0
	}
	for i, b := range content {
		if b != '\n' {
			continue
		}
		if line == end {
			e = i
			break
		}
		line++
		if line == start {
			s = i + 1
		}
	}
	if s < 0 { // start past the last line
		return len(content), len(content)
	}
	return s, e
}

// Lines returns the text of lines start..end (1-based, inclusive), each
// ending in "\n" as index.Text does, and whether the range exists in full.
func Lines(content []byte, start, end int) (string, bool) {
	n := CountLines(content)
	if start < 1 || end < start || end > n {
		return "", false
	}
	s, e := LineSpan(content, start, end)
	text := string(content[s:e])
	return text + "\n", true
}

// CountLines is the number of lines in content (a last line without a
// newline counts; an empty file has none).
func CountLines(content []byte) int {
	if len(content) == 0 {
		return 0
	}
	n := 0
	for _, b := range content {
		if b == '\n' {
			n++
		}
	}
	if content[len(content)-1] != '\n' {
		n++
	}
	return n
}

// LineIndex holds the offsets of the lines of one content, for repeated
// line lookups in a large file.
type LineIndex struct {
	content []byte
	starts  []int // starts[i] is the offset of line i+1
}

// NewLineIndex indexes the lines of content.
func NewLineIndex(content []byte) *LineIndex {
	starts := []int{0}
	for i, b := range content {
		if b == '\n' && i+1 < len(content) {
			starts = append(starts, i+1)
		}
	}
	if len(content) == 0 {
		starts = nil
	}
	return &LineIndex{content: content, starts: starts}
}

// Content is the indexed content.
func (x *LineIndex) Content() []byte { return x.content }

// Count is the number of lines, as CountLines.
func (x *LineIndex) Count() int { return len(x.starts) }

// Lines is Lines(content, start, end) in O(end-start).
func (x *LineIndex) Lines(start, end int) (string, bool) {
	if start < 1 || end < start || end > len(x.starts) {
		return "", false
	}
	s := x.starts[start-1]
	e := len(x.content)
	if end < len(x.starts) {
		e = x.starts[end] - 1
	} else if e > 0 && x.content[e-1] == '\n' {
		e--
	}
	return string(x.content[s:e]) + "\n", true
}
