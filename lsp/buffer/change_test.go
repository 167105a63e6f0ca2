package buffer

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"
)

func pos(l, c uint32) protocol.Position { return protocol.Position{Line: l, Character: c} }

func rng(l1, c1, l2, c2 int64) *WireRange {
	return &WireRange{Start: WirePosition{l1, c1}, End: WirePosition{l2, c2}}
}

func TestApplyChangesUTF16(t *testing.T) {
	// "😀" is two UTF-16 units and four UTF-8 bytes; "é" one unit, two bytes.
	const doc = "a😀b\né😀x\r\nlast"
	tests := []struct {
		name    string
		changes []Change
		want    string
		warn    bool
		reject  bool
	}{
		{"after emoji", []Change{{Range: rng(0, 3, 0, 4), Text: "B"}}, "a😀B\né😀x\r\nlast", false, false},
		{"replace emoji", []Change{{Range: rng(0, 1, 0, 3), Text: "🙂"}}, "a🙂b\né😀x\r\nlast", false, false},
		{"second line after é and emoji", []Change{{Range: rng(1, 3, 1, 4), Text: "y"}}, "a😀b\né😀y\r\nlast", false, false},
		{"insert across CRLF line", []Change{{Range: rng(1, 4, 2, 0), Text: "|"}}, "a😀b\né😀x|last", false, false},
		{"full replace", []Change{{Text: "new"}}, "new", false, false},
		{"sequential", []Change{{Range: rng(0, 0, 0, 0), Text: "🎉\n"}, {Range: rng(1, 3, 1, 4), Text: "!"}}, "🎉\na😀!\né😀x\r\nlast", false, false},
		{"char past line end clamps", []Change{{Range: rng(0, 99, 0, 99), Text: "+"}}, "a😀b+\né😀x\r\nlast", true, false},
		{"line past end rejects", []Change{{Range: rng(9, 0, 9, 0), Text: "+"}}, doc, false, true},
		{"negative line rejects the whole list", []Change{{Range: rng(0, 0, 0, 0), Text: "+"}, {Range: rng(-1, 0, -1, 0), Text: "-"}}, doc, false, true},
		{"negative character rejects", []Change{{Range: rng(0, -3, 0, 0), Text: "+"}}, doc, false, true},
		{"end before start rejects", []Change{{Range: rng(1, 0, 0, 0), Text: "+"}}, doc, false, true},
		{"end of the document is a position", []Change{{Range: rng(2, 4, 2, 4), Text: "+"}}, doc + "+", false, false},
		{"inside surrogate pair clamps to its start", []Change{{Range: rng(0, 2, 0, 2), Text: "+"}}, "a+😀b\né😀x\r\nlast", true, false},
		{"delete a line with an emoji", []Change{{Range: rng(0, 0, 1, 0), Text: ""}}, "é😀x\r\nlast", false, false},
	}
	for _, tc := range tests {
		for _, chunk := range []int{1, 3, textChunk} {
			t.Run(fmt.Sprintf("%s/chunks of %d", tc.name, chunk), func(t *testing.T) {
				in := newChunked([]byte(doc), chunk)
				got, edits, warns, err := ApplyChanges(in, tc.changes)
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
