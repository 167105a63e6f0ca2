package buffer

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// refDoc is a reference model of an LSP text document: lines of UTF-16
// code units, edited by position the plain way.
type refDoc struct{ units []uint16 }

func newRef(s string) *refDoc { return &refDoc{utf16.Encode([]rune(s))} }

func (d *refDoc) String() string { return string(utf16.Decode(d.units)) }

// offset maps a position to a unit offset: false for a line past the end
// or a negative number; a character past the line clamps to its end, one
// inside a surrogate pair to the pair's start.
func (d *refDoc) offset(line, char int64) (int, bool) {
	if line < 0 || char < 0 {
		return 0, false
	}
	start, l := 0, int64(0)
	for l < line {
		i := start
		for i < len(d.units) && d.units[i] != '\n' && d.units[i] != '\r' {
			i++
		}
		if i == len(d.units) {
			return 0, false
		}
		if d.units[i] == '\r' && i+1 < len(d.units) && d.units[i+1] == '\n' {
			i++
		}
		start = i + 1
		l++
	}
	end := start
	for end < len(d.units) && d.units[end] != '\n' && d.units[end] != '\r' {
		end++
	}
	off := start + int(min(char, int64(end-start)))
	if off > start && off < end && utf16.IsSurrogate(rune(d.units[off])) && d.units[off] >= 0xDC00 {
		off-- // inside a pair: its start
	}
	return off, true
}

// FuzzIncrementalSync: random edits (non-BMP text, out-of-range and
// negative positions) applied by ApplyChanges give the same buffer as the
// reference model, and a list with an invalid range is rejected whole.
func FuzzIncrementalSync(f *testing.F) {
	f.Add("a😀b\né😀x\r\nlast", []byte{0, 1, 0, 3, 5, 2, 0, 0, 0, 0, 1, 1, 255, 9, 9, 9, 9, 3})
	f.Add("", []byte{0, 0, 0, 0, 0, 1})
	f.Add("x\ry\n\nz", []byte{2, 0, 3, 0, 4, 7, 128, 0, 0, 0})
	texts := []string{"", "a", "🎉", "\n", "\r\n", "é", "x😀y\n", "\r"}
	f.Fuzz(func(t *testing.T, doc string, ops []byte) {
		if !utf8.ValidString(doc) {
			return
		}
		ref := newRef(doc)
		var changes []Change
		valid := true
		for i := 0; i+5 <= len(ops) && len(changes) < 20; i += 5 {
			num := func(b byte) int64 {
				if b >= 250 {
					return -int64(b - 249) // a few negatives
				}
				return int64(b % 12)
			}
			r := &WireRange{Start: WirePosition{num(ops[i]), num(ops[i+1])}, End: WirePosition{num(ops[i+2]), num(ops[i+3])}}
			text := texts[int(ops[i+4])%len(texts)]
			if ops[i+4] >= 240 {
				changes = append(changes, Change{Text: text + doc}) // a full replacement
				if valid {
					ref = newRef(text + doc)
				}
				continue
			}
			changes = append(changes, Change{Range: r, Text: text})
			if !valid {
				continue
			}
			s, okS := ref.offset(r.Start.Line, r.Start.Character)
			e, okE := ref.offset(r.End.Line, r.End.Character)
			if !okS || !okE || e < s {
				valid = false
				continue
			}
			units := append(append(append([]uint16(nil), ref.units[:s]...), utf16.Encode([]rune(text))...), ref.units[e:]...)
			ref.units = units
		}
		in := newChunked([]byte(doc), 1+len(ops)%5) // tiny chunks: edits across them
		out, _, _, err := ApplyChanges(in, changes)
		got := joined(out)
		checkText(t, out)
		if string(joined(in)) != doc {
			t.Fatalf("the text before the changes became %q", joined(in))
		}
		if !valid {
			if err == nil {
				t.Fatalf("accepted changes the reference rejects: %+v", changes)
			}
			if string(got) != doc {
				t.Fatalf("a rejected list changed the buffer: %q", got)
			}
			return
		}
		if err != nil {
			t.Fatalf("rejected changes the reference accepts: %v (%+v)", err, changes)
		}
		if string(got) != ref.String() {
			t.Fatalf("buffer %q, reference %q (doc %q, changes %+v)", got, ref.String(), doc, changes)
		}
	})
}
