package citations

import (
	"testing"

	"go.lsp.dev/protocol"
)

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
		p := Position(content, tt.off)
		if p.Line != tt.line || p.Character != tt.char {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.off, p.Line, p.Character, tt.line, tt.char)
		}
	}
	// Offset is the inverse on rune boundaries.
	for _, off := range []int{0, 3, 4, 6, 9, 13, 14, 15, 16, 20} {
		if got := Offset(content, Position(content, off)); got != off {
			t.Errorf("Offset(Position(%d)) = %d", off, got)
		}
	}
	if got := Offset(content, protocol.Position{Line: 1, Character: 99}); got != 14 {
		t.Errorf("column past the line end: %d", got)
	}
	if got := Offset(content, protocol.Position{Line: 9}); got != len(content) {
		t.Errorf("line past the end: %d", got)
	}
}

func TestLineSpanAndLines(t *testing.T) {
	content := []byte("one\ntwo\nthree\nfour")
	tests := []struct {
		start, end int
		want       string
		whole      bool
	}{
		{1, 1, "one", true},
		{2, 3, "two\nthree", true},
		{4, 4, "four", true},
		{3, 9, "three\nfour", false},
		{9, 9, "", false},
		{0, 1, "one", false},
	}
	for _, tt := range tests {
		s, e := LineSpan(content, tt.start, tt.end)
		if got := string(content[s:e]); got != tt.want {
			t.Errorf("LineSpan(%d,%d) = %q, want %q", tt.start, tt.end, got, tt.want)
		}
		text, whole := Lines(content, tt.start, tt.end)
		if whole != tt.whole || (whole && text != tt.want+"\n") {
			t.Errorf("Lines(%d,%d) = %q %v", tt.start, tt.end, text, whole)
		}
	}
	if n := CountLines([]byte("a\nb\n")); n != 2 {
		t.Errorf("CountLines = %d", n)
	}
	if n := CountLines(nil); n != 0 {
		t.Errorf("CountLines(nil) = %d", n)
	}
}

func TestLocation(t *testing.T) {
	content := []byte("package p\n\n// 日本語 😀 doc\nfunc F() {}\n")
	c := Citation{N: 1, Path: "p.go", Start: 3, End: 4}
	c.StartByte, c.EndByte = LineSpan(content, 3, 4)
	loc := Location(c, "file:///w/p.go", content)
	want := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 3, Character: 11}}
	if loc.Range != want || loc.URI != "file:///w/p.go" {
		t.Errorf("Location = %+v, want %+v", loc, want)
	}
	c.StartByte, c.EndByte = 0, 0 // lines only
	if got := Location(c, "file:///w/p.go", content); got.Range != want {
		t.Errorf("from lines: %+v", got.Range)
	}
	c = Citation{Start: 3, End: 3}
	c.StartByte, c.EndByte = LineSpan(content, 3, 3)
	// "// 日本語 😀 doc": 3 + 3 + 1 + 2 + 4 = 13 units
	if got := Location(c, "u", content).Range.End.Character; got != 13 {
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
	c := Citation{N: 1, Path: "p.go", Start: 2, End: 3}
	c.StartByte, c.EndByte = LineSpan(content, 2, 3)
	got := Location(c, "u", content).Range
	want := protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 3, Character: 1}}
	if got != want {
		t.Errorf("Location = %+v, want %+v", got, want)
	}
	// Each offset survives the round trip through an LSP position; the
	// offset between \r and \n is the end of its line.
	for off := 0; off <= len(content); off++ {
		p := Position(content, off)
		back, exact := OffsetExact(content, p)
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
	if off, ok := LineStart(content, 1); off != 2 || !ok {
		t.Errorf("LineStart(1) = %d, %v; want 2 (after the lone CR)", off, ok)
	}
}

func TestLineIndexMatchesLines(t *testing.T) {
	for _, content := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "x\ny\nz"} {
		x := NewLineIndex([]byte(content))
		if x.Count() != CountLines([]byte(content)) {
			t.Errorf("%q: Count %d, CountLines %d", content, x.Count(), CountLines([]byte(content)))
		}
		for s := 0; s <= 4; s++ {
			for e := 0; e <= 4; e++ {
				a, aok := Lines([]byte(content), s, e)
				b, bok := x.Lines(s, e)
				if a != b || aok != bok {
					t.Errorf("%q lines %d-%d: Lines %q %v, LineIndex %q %v", content, s, e, a, aok, b, bok)
				}
			}
		}
	}
}
