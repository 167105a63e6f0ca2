package lsp

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"
)

func pos(l, c uint32) protocol.Position { return protocol.Position{Line: l, Character: c} }

func rng(l1, c1, l2, c2 int64) *wireRange {
	return &wireRange{Start: wirePos{l1, c1}, End: wirePos{l2, c2}}
}

func TestApplyChangesUTF16(t *testing.T) {
	// "😀" is two UTF-16 units and four UTF-8 bytes; "é" one unit, two bytes.
	const doc = "a😀b\né😀x\r\nlast"
	tests := []struct {
		name    string
		changes []contentChange
		want    string
		warn    bool
		reject  bool
	}{
		{"after emoji", []contentChange{{Range: rng(0, 3, 0, 4), Text: "B"}}, "a😀B\né😀x\r\nlast", false, false},
		{"replace emoji", []contentChange{{Range: rng(0, 1, 0, 3), Text: "🙂"}}, "a🙂b\né😀x\r\nlast", false, false},
		{"second line after é and emoji", []contentChange{{Range: rng(1, 3, 1, 4), Text: "y"}}, "a😀b\né😀y\r\nlast", false, false},
		{"insert across CRLF line", []contentChange{{Range: rng(1, 4, 2, 0), Text: "|"}}, "a😀b\né😀x|last", false, false},
		{"full replace", []contentChange{{Text: "new"}}, "new", false, false},
		{"sequential", []contentChange{{Range: rng(0, 0, 0, 0), Text: "🎉\n"}, {Range: rng(1, 3, 1, 4), Text: "!"}}, "🎉\na😀!\né😀x\r\nlast", false, false},
		{"char past line end clamps", []contentChange{{Range: rng(0, 99, 0, 99), Text: "+"}}, "a😀b+\né😀x\r\nlast", true, false},
		{"line past end rejects", []contentChange{{Range: rng(9, 0, 9, 0), Text: "+"}}, doc, false, true},
		{"negative line rejects the whole list", []contentChange{{Range: rng(0, 0, 0, 0), Text: "+"}, {Range: rng(-1, 0, -1, 0), Text: "-"}}, doc, false, true},
		{"negative character rejects", []contentChange{{Range: rng(0, -3, 0, 0), Text: "+"}}, doc, false, true},
		{"end before start rejects", []contentChange{{Range: rng(1, 0, 0, 0), Text: "+"}}, doc, false, true},
		{"end of the document is a position", []contentChange{{Range: rng(2, 4, 2, 4), Text: "+"}}, doc + "+", false, false},
		{"inside surrogate pair clamps to its start", []contentChange{{Range: rng(0, 2, 0, 2), Text: "+"}}, "a+😀b\né😀x\r\nlast", true, false},
		{"delete a line with an emoji", []contentChange{{Range: rng(0, 0, 1, 0), Text: ""}}, "é😀x\r\nlast", false, false},
	}
	for _, tc := range tests {
		for _, chunk := range []int{1, 3, textChunk} {
			t.Run(fmt.Sprintf("%s/chunks of %d", tc.name, chunk), func(t *testing.T) {
				in := newTextChunked([]byte(doc), chunk)
				got, edits, warns, err := applyChanges(in, tc.changes)
				if string(got.Bytes()) != tc.want {
					t.Errorf("got %q, want %q", got.Bytes(), tc.want)
				}
				if string(joined(in)) != doc {
					t.Errorf("the text before the changes became %q", joined(in))
				}
				checkText(t, got)
				if (err != nil) != tc.reject {
					t.Errorf("err = %v, want a rejection: %v", err, tc.reject)
				}
				if tc.reject {
					return
				}
				if len(edits) != len(tc.changes) {
					t.Errorf("got %d edits, want %d", len(edits), len(tc.changes))
				}
				if (len(warns) > 0) != tc.warn {
					t.Errorf("warnings %q, want some: %v", warns, tc.warn)
				}
			})
		}
	}
}

func TestPositionRoundTrip(t *testing.T) {
	content := []byte("x😀y\r\né\n\nz")
	for off := 0; off <= len(content); off++ {
		p := positionOf(content, off)
		back, _ := offsetOf(content, p)
		// Offsets inside a multi-byte rune map to the rune's start; the
		// offset between \r and \n maps to the end of the line.
		if back > off {
			t.Errorf("offset %d -> %v -> %d: moved forward", off, p, back)
		}
	}
	if got := positionOf(content, len("x😀")); got != pos(0, 3) {
		t.Errorf("after emoji: %v, want 0:3", got)
	}
	if got := positionOf(content, len("x😀y\r\né")); got != pos(1, 1) {
		t.Errorf("after é: %v, want 1:1", got)
	}
	if got := positionOf(content, len(content)); got != pos(3, 1) {
		t.Errorf("end: %v, want 3:1", got)
	}
}
