package buffer

import (
	"testing"

	"go.lsp.dev/protocol"
)

// offset is OffsetOf without the exactness.
func offset(content []byte, p protocol.Position) int {
	off, _ := OffsetOf(content, p)
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
		p := PositionOf(content, tt.off)
		if p.Line != tt.line || p.Character != tt.char {
			t.Errorf("PositionOf(%d) = %d:%d, want %d:%d", tt.off, p.Line, p.Character, tt.line, tt.char)
		}
	}
	// Offset is the inverse on rune boundaries.
	for _, off := range []int{0, 3, 4, 6, 9, 13, 14, 15, 16, 20} {
		if got := offset(content, PositionOf(content, off)); got != off {
			t.Errorf("OffsetOf(PositionOf(%d)) = %d", off, got)
		}
	}
	if got := offset(content, protocol.Position{Line: 1, Character: 99}); got != 14 {
		t.Errorf("column past the line end: %d", got)
	}
	if got := offset(content, protocol.Position{Line: 9}); got != len(content) {
		t.Errorf("line past the end: %d", got)
	}
}

func TestPositionRoundTrip(t *testing.T) {
	content := []byte("x😀y\r\né\n\nz")
	for off := 0; off <= len(content); off++ {
		p := PositionOf(content, off)
		back, _ := OffsetOf(content, p)
		// Offsets inside a multi-byte rune map to the rune's start; the
		// offset between \r and \n maps to the end of the line.
		if back > off {
			t.Errorf("offset %d -> %v -> %d: moved forward", off, p, back)
		}
	}
	if got := PositionOf(content, len("x😀")); got != pos(0, 3) {
		t.Errorf("after emoji: %v, want 0:3", got)
	}
	if got := PositionOf(content, len("x😀y\r\né")); got != pos(1, 1) {
		t.Errorf("after é: %v, want 1:1", got)
	}
	if got := PositionOf(content, len(content)); got != pos(3, 1) {
		t.Errorf("end: %v, want 3:1", got)
	}
}
