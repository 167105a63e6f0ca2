package lsp

import (
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Positions at the edge: LSP counts lines from 0 and characters in UTF-16
// code units; inside askls everything is a byte offset. Line breaks are
// "\n", "\r\n" or "\r", as the protocol says.

// offsetOf returns the byte offset of p in content. A line past the end
// clamps to the end of the content, a character past the end of its line
// clamps to the line's end, and a character inside a surrogate pair clamps
// to the start of that character. exact is false when clamping happened.
func offsetOf(content []byte, p protocol.Position) (off int, exact bool) {
	start, ok := lineStart(content, int(p.Line))
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
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // invalid UTF-8 byte: one unit, as VS Code counts U+FFFD
		}
		if units+n > want {
			return i, false
		}
		units += n
		i += size
	}
	return i, units == want
}

// positionOf returns the LSP position of byte offset off (clamped).
func positionOf(content []byte, off int) protocol.Position {
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
				if i+1 == off { // off between \r and \n: end of that line
					return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(content[start:i]))}
				}
				i++
			}
			line++
			start = i + 1
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Prefix(content[start:], off-start))}
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
		if k := utf16.RuneLen(r); k > 0 {
			units += k
		} else {
			units++
		}
		i += size
	}
	return units
}

// rangeOf converts a byte range to an LSP range.
func rangeOf(content []byte, start, end int) protocol.Range {
	return protocol.Range{Start: positionOf(content, start), End: positionOf(content, end)}
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if k := utf16.RuneLen(r); k > 0 {
			n += k
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}

// lineStart returns the byte offset where 0-based line n starts.
func lineStart(content []byte, n int) (int, bool) {
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

// lineEnd returns the offset of the line break ending the line that starts
// at start (or the end of the content).
func lineEnd(content []byte, start int) int {
	for i := start; i < len(content); i++ {
		if content[i] == '\n' || content[i] == '\r' {
			return i
		}
	}
	return len(content)
}

// byteToLine returns the 1-based line of byte offset off.
func byteToLine(content []byte, off int) int {
	return int(positionOf(content, off).Line) + 1
}
