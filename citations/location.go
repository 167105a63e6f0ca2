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

// Positions follow the protocol: lines are counted from 0 and end at
// "\n", "\r\n" or a lone "\r"; characters count UTF-16 code units (an
// invalid UTF-8 byte counts one, as VS Code counts U+FFFD). Byte offsets
// and the 1-based lines of the index (LineSpan) count "\n" only; the two
// differ only in files holding a lone "\r", where only this conversion
// keeps a Location on the bytes it was made from.

// Position converts a byte offset into content to an LSP position.
// Offsets past the end clamp to the end; an offset in the middle of a
// UTF-8 sequence counts from the start of that rune; an offset between
// "\r" and "\n" is the end of that line.
func Position(content []byte, off int) protocol.Position {
	if off > len(content) {
		off = len(content)
	}
	if off < 0 {
		off = 0
	}
	line, start := 0, 0
	for i := 0; i < off; i++ {
		switch content[i] {
		case '\n':
			line++
			start = i + 1
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				if i+1 == off {
					return protocol.Position{Line: uint32(line), Character: uint32(utf16Prefix(content[start:], i-start))}
				}
				i++
			}
			line++
			start = i + 1
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Prefix(content[start:], off-start))}
}

// Offset converts an LSP position to a byte offset into content (see
// OffsetExact).
func Offset(content []byte, p protocol.Position) int {
	off, _ := OffsetExact(content, p)
	return off
}

// OffsetExact converts an LSP position to a byte offset into content. A
// line past the end clamps to the end of the content, a character past
// the end of its line clamps to the line's end, and a character inside a
// surrogate pair clamps to the start of that character; exact is false
// when clamping happened.
func OffsetExact(content []byte, p protocol.Position) (off int, exact bool) {
	start, ok := LineStart(content, int(p.Line))
	if !ok {
		return len(content), false
	}
	end := lineEnd(content, start)
	want := int(p.Character)
	units := 0
	i := start
	for i < end {
		if units == want {
			return i, true
		}
		r, size := utf8.DecodeRune(content[i:end])
		n := utf16Len(r)
		if units+n > want {
			return i, false
		}
		units += n
		i += size
	}
	return i, units == want
}

// LineStart returns the byte offset where LSP line n (0-based) starts;
// false when content has fewer lines.
func LineStart(content []byte, n int) (int, bool) {
	if n == 0 {
		return 0, true
	}
	line := 0
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if c == '\r' && i+1 < len(content) && content[i+1] == '\n' {
			i++
		}
		line++
		if line == n {
			return i + 1, true
		}
	}
	return len(content), false
}

// lineEnd returns the offset of the line break ending the line that
// starts at start (or the end of the content).
func lineEnd(content []byte, start int) int {
	for i := start; i < len(content); i++ {
		if content[i] == '\n' || content[i] == '\r' {
			return i
		}
	}
	return len(content)
}

// utf16Prefix counts the UTF-16 units of the runes of b that end at or
// before n bytes (a rune cut by n does not count).
func utf16Prefix(b []byte, n int) int {
	units := 0
	for i := 0; i < n; {
		r, size := utf8.DecodeRune(b[i:])
		if i+size > n {
			break
		}
		units += utf16Len(r)
		i += size
	}
	return units
}

func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1 // an invalid byte: U+FFFD, one unit
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
