package buffer

import (
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Positions follow the protocol: lines are counted from 0 and end at
// "\n", "\r\n" or a lone "\r"; characters count UTF-16 code units (an
// invalid UTF-8 byte counts one, as VS Code counts U+FFFD). Byte offsets
// and the 1-based lines of the index (LineSpan) count "\n" only; the two
// differ only in files holding a lone "\r", where only this conversion
// keeps a Location on the bytes it was made from.

// PositionOf converts a byte offset into content to an LSP position.
// Offsets past the end clamp to the end; an offset in the middle of a
// UTF-8 sequence counts from the start of that rune; an offset between
// "\r" and "\n" is the end of that line.
func PositionOf(content []byte, off int) protocol.Position {
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

// OffsetOf converts an LSP position to a byte offset into content. A
// line past the end clamps to the end of the content, a character past
// the end of its line clamps to the line's end, and a character inside a
// surrogate pair clamps to the start of that character; exact is false
// when clamping happened.
func OffsetOf(content []byte, p protocol.Position) (off int, exact bool) {
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
		n := runeUTF16Len(r)
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
		units += runeUTF16Len(r)
		i += size
	}
	return units
}

func runeUTF16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1 // an invalid byte: U+FFFD, one unit
}
