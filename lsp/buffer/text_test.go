package buffer

import (
	"math/rand"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// joined is t's chunks joined, not its cached Bytes.
func joined(t *Text) []byte {
	var b []byte
	for _, c := range t.chunks {
		b = append(b, c.b...)
	}
	return b
}

// checkText checks x's invariants (text.go) and that its positions are
// those of the flat functions (position.go) on the same bytes.
func checkText(t *testing.T, x *Text) {
	t.Helper()
	flat := joined(x)
	if string(x.Bytes()) != string(flat) {
		t.Fatalf("Bytes %q, chunks %q", x.Bytes(), flat)
	}
	off, lines := 0, 0
	for i, c := range x.chunks {
		if len(c.b) == 0 || c.off != off || c.lines != lines {
			t.Fatalf("chunk %d: %d bytes at %d after %d lines, want at %d after %d", i, len(c.b), c.off, c.lines, off, lines)
		}
		if i > 0 && !cleanJoin(x.chunks[i-1].b, c.b) {
			t.Fatalf("chunks %d and %d split %q|%q", i-1, i, x.chunks[i-1].b, c.b)
		}
		off += len(c.b)
		lines += countBreaks(c.b)
	}
	if x.size != off || x.lines != lines {
		t.Fatalf("size %d lines %d, want %d %d", x.size, x.lines, off, lines)
	}
	for n := 0; n <= x.lines+1; n++ {
		got, gok := x.LineStart(n)
		want, wok := LineStart(flat, n)
		if got != want || gok != wok {
			t.Fatalf("LineStart(%d) = %d %v, want %d %v in %q", n, got, gok, want, wok, flat)
		}
		for ch := uint32(0); ch < 12; ch++ {
			p := protocol.Position{Line: uint32(n), Character: ch}
			got, gex := x.OffsetOf(p)
			want, wex := OffsetOf(flat, p)
			if got != want || gex != wex {
				t.Fatalf("OffsetOf(%v) = %d %v, want %d %v in %q", p, got, gex, want, wex, flat)
			}
		}
	}
}

// TestTextEditsMatchFlat: random replacements (line breaks of every kind,
// "\r" and "\n" typed apart, runes of 1 to 4 bytes) applied to chunked
// texts give the bytes and positions of the same edits on a flat copy,
// and never change an earlier text.
func TestTextEditsMatchFlat(t *testing.T) {
	pieces := []string{"", "a", "\r", "\n", "\r\n", "é", "😀", "xyz\n", "\r\r\n\n", "一二三"}
	for _, chunk := range []int{1, 2, 5, 16} {
		rnd := rand.New(rand.NewSource(int64(chunk)))
		flat := []byte("start\r\nmiddle😀\rend\n")
		x := newChunked(append([]byte(nil), flat...), chunk)
		for i := 0; i < 400; i++ {
			start := rnd.Intn(len(flat) + 1)
			end := start + rnd.Intn(min(len(flat)-start, 8)+1)
			for start > 0 && start < len(flat) && flat[start]&0xC0 == 0x80 {
				start-- // edits start and end at runes, as OffsetOf gives them
			}
			for end < len(flat) && flat[end]&0xC0 == 0x80 {
				end++
			}
			s := pieces[rnd.Intn(len(pieces))] + pieces[rnd.Intn(len(pieces))]
			before, old := string(flat), x
			flat = append(append(append([]byte(nil), flat[:start]...), s...), flat[end:]...)
			x = x.replace(start, end, s)
			if string(joined(old)) != before {
				t.Fatalf("chunks of %d, edit %d changed the text before it", chunk, i)
			}
			if string(joined(x)) != string(flat) {
				t.Fatalf("chunks of %d, edit %d: %q, want %q", chunk, i, joined(x), flat)
			}
			checkText(t, x)
		}
	}
}

// TestTypingKeepsChunksFew: typing in one place, and deleting what was
// typed, leaves about as many chunks as the text's length needs.
func TestTypingKeepsChunksFew(t *testing.T) {
	const max = 1024
	x := newChunked([]byte(strings.Repeat("abcdefgh\n", 400)), max)
	at := 2*max + 1 // just after a chunk's start
	for i := range 2000 {
		x = x.replace(at, at, "y")
		at++
		if i%3 == 2 {
			x = x.replace(at-2, at, "") // a correction
			at -= 2
		}
	}
	checkText(t, x)
	if limit := 4*x.Len()/max + 2; len(x.chunks) > limit {
		t.Errorf("%d bytes in %d chunks of at most %d bytes, want at most %d", x.Len(), len(x.chunks), max, limit)
	}
}

// TestKeystrokeInLargeTextCopiesLittle: an edit of a 50 MB text copies
// the chunks it touches, not the text, and finds its line without reading
// the text before it. Counted in bytes allocated, not timed: 100
// keystrokes used to allocate 100 copies (5 GB); the bound is half of
// one copy for all of them (each takes about one chunk and the list of
// chunks: 110 KB).
func TestKeystrokeInLargeTextCopiesLittle(t *testing.T) {
	line := "// filler line of a large generated file, 64 bytes or so.....\n"
	big := New([]byte(strings.Repeat(line, (50<<20)/len(line))))
	const keystrokes = 100
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := big
	for i := range keystrokes {
		at := int64(700_000 - 5000*i) // late lines, earlier ones too
		var err error
		x, _, _, err = ApplyChanges(x, []Change{{Range: rng(at, 3, at, 3), Text: "x"}})
		if err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d keystrokes allocated %d KB", keystrokes, alloc>>10)
	if alloc > uint64(big.Len()/2) {
		t.Errorf("%d keystrokes in a %d MB text allocated %d MB", keystrokes, big.Len()>>20, alloc>>20)
	}
	if x.Len() != big.Len()+keystrokes {
		t.Errorf("length %d, want %d", x.Len(), big.Len()+keystrokes)
	}
	off, _ := x.OffsetOf(pos(700_000, 0))
	if got := string(x.Bytes()[off : off+6]); got != "// xfi" {
		t.Errorf("line 700000 starts %q", got)
	}
	off, _ = big.OffsetOf(pos(700_000, 0))
	if got := string(big.Bytes()[off : off+6]); got != "// fil" {
		t.Errorf("the text before the keystrokes became %q", got)
	}
}
