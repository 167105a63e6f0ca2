package lsp

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
)

// offset is offsetOf without the exactness.
func offset(content []byte, p protocol.Position) int {
	off, _ := offsetOf(content, p)
	return off
}

func TestPositionUTF16(t *testing.T) {
	// Line 2 holds a 2-byte rune (é: 1 unit), a 3-byte rune (日: 1 unit)
	// and a 4-byte rune outside the BMP (😀: 2 units).
	content := []byte("abc\né日😀x\n\nlast")
	tests := []struct {
		off        int
		line, char uint32
	}{
		{0, 0, 0},
		{3, 0, 3},
		{4, 1, 0},
		{6, 1, 1},  // after é
		{9, 1, 2},  // after 日
		{13, 1, 4}, // after 😀
		{14, 1, 5}, // after x
		{15, 2, 0},
		{16, 3, 0},
		{20, 3, 4},
		{99, 3, 4}, // clamped
		{11, 1, 2}, // inside 😀: start of the rune
	}
	for _, tt := range tests {
		p := positionOf(content, tt.off)
		if p.Line != tt.line || p.Character != tt.char {
			t.Errorf("positionOf(%d) = %d:%d, want %d:%d", tt.off, p.Line, p.Character, tt.line, tt.char)
		}
	}
	// Offset is the inverse on rune boundaries.
	for _, off := range []int{0, 3, 4, 6, 9, 13, 14, 15, 16, 20} {
		if got := offset(content, positionOf(content, off)); got != off {
			t.Errorf("offsetOf(positionOf(%d)) = %d", off, got)
		}
	}
	if got := offset(content, protocol.Position{Line: 1, Character: 99}); got != 14 {
		t.Errorf("column past the line end: %d", got)
	}
	if got := offset(content, protocol.Position{Line: 9}); got != len(content) {
		t.Errorf("line past the end: %d", got)
	}
}

func TestLocation(t *testing.T) {
	content := []byte("package p\n\n// 日本語 😀 doc\nfunc F() {}\n")
	c := citations.Citation{N: 1, Path: "p.go", Start: 3, End: 4}
	c.StartByte, c.EndByte = citations.LineSpan(content, 3, 4)
	loc := citationLocation(c, "file:///w/p.go", content)
	want := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 3, Character: 11}}
	if loc.Range != want || loc.URI != "file:///w/p.go" {
		t.Errorf("Location = %+v, want %+v", loc, want)
	}
	c.StartByte, c.EndByte = 0, 0 // lines only
	if got := citationLocation(c, "file:///w/p.go", content); got.Range != want {
		t.Errorf("from lines: %+v", got.Range)
	}
	c = citations.Citation{Start: 3, End: 3}
	c.StartByte, c.EndByte = citations.LineSpan(content, 3, 3)
	// "// 日本語 😀 doc": 3 + 3 + 1 + 2 + 4 = 13 units
	if got := citationLocation(c, "u", content).Range.End.Character; got != 13 {
		t.Errorf("end column = %d, want 13", got)
	}
}

// TestLocationWithCarriageReturns: LSP ends lines at "\r\n" and at a
// lone "\r" too, the index's lines at "\n" only. A citation of index
// lines 2-3 must still cover the same bytes in the editor's numbering.
func TestLocationWithCarriageReturns(t *testing.T) {
	// Index lines: 1 "a\rb" (a lone CR inside), 2 "func F() {}\r" (CRLF),
	// 3 "x". LSP lines: 0 "a", 1 "b", 2 "func F() {}", 3 "x".
	content := []byte("a\rb\nfunc F() {}\r\nx")
	c := citations.Citation{N: 1, Path: "p.go", Start: 2, End: 3}
	c.StartByte, c.EndByte = citations.LineSpan(content, 2, 3)
	got := citationLocation(c, "u", content).Range
	want := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 3, Character: 1}}
	if got != want {
		t.Errorf("Location = %+v, want %+v", got, want)
	}
	// Each offset survives the round trip through an LSP position; the
	// offset between \r and \n is the end of its line.
	for off := 0; off <= len(content); off++ {
		p := positionOf(content, off)
		back, exact := offsetOf(content, p)
		if off == len("a\rb\nfunc F() {}\r") {
			if p != (protocol.Position{Line: 2, Character: 11}) {
				t.Errorf("Position between CR and LF = %+v", p)
			}
			continue
		}
		if back != off || !exact {
			t.Errorf("offset %d -> %+v -> %d (exact %v)", off, p, back, exact)
		}
	}
	if off, ok := lineStart(content, 1); off != 2 || !ok {
		t.Errorf("lineStart(1) = %d, %v; want 2 (after the lone CR)", off, ok)
	}
}
