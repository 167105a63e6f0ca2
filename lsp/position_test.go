package lsp

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/lsp/buffer"
)

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
		p := buffer.PositionOf(content, off)
		back, exact := buffer.OffsetOf(content, p)
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
	if off, ok := buffer.LineStart(content, 1); off != 2 || !ok {
		t.Errorf("buffer.LineStart(1) = %d, %v; want 2 (after the lone CR)", off, ok)
	}
}
