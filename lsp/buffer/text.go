package buffer

import (
	"sort"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Text is an open buffer's content, never changed once made: an edit
// makes a new text. It is held in chunks of about textChunk bytes, each
// with the number of lines before it, so that an edit copies only the
// chunks it touches (and the list of chunks, one entry per 64 KiB), and
// finding a position is a binary search over the chunks plus a scan of
// one line, not of the text before it.
//
// Why chunks, not a flat copy per edit nor a piece table: a keystroke in
// a 50 MB buffer copied all of it (52 MB allocated, 30–80 ms, most of it
// the copy and the scan from the start for the line); the index holds
// none of a buffer over its size limit, so the server needs such a text
// only for later edits. A piece table needs the same line counts per
// piece and grows a piece per edit; fixed-size chunks stay as many as the
// text is long. Readers that want the whole text as bytes (citations,
// hover, the index for a buffer under the size limit) call Bytes, which
// joins the chunks once per text.
//
// Invariants: every chunk is non-empty; no chunk boundary falls between
// "\r" and "\n" (so counting lines is local to a chunk); chunks are
// subslices of arrays nobody writes to, capacity clipped.
type Text struct {
	chunks []chunk
	size   int
	lines  int // line breaks in the whole text
	max    int // the chunk size this text splits at (textChunk but in tests)

	flatOnce sync.Once
	flat     []byte
}

type chunk struct {
	b     []byte
	off   int // byte offset of b[0] in the text
	lines int // line breaks before b[0]
}

// textChunk is the size chunks are split at.
const textChunk = 64 << 10

// New is the text of b, in chunks of textChunk bytes. b must not be
// modified afterwards.
func New(b []byte) *Text { return newChunked(b, textChunk) }

// newChunked is New with chunks of at most max bytes (tests use
// tiny ones). b must not be modified afterwards.
func newChunked(b []byte, max int) *Text {
	t := &Text{max: max, chunks: split(nil, b, max)}
	t.renumber(0, len(t.chunks))
	t.flatOnce.Do(func() { t.flat = b })
	return t
}

// Len is the text's length in bytes.
func (t *Text) Len() int { return t.size }

// Bytes is the whole text; it must not be modified.
func (t *Text) Bytes() []byte {
	t.flatOnce.Do(func() {
		t.flat = make([]byte, 0, t.size)
		for _, c := range t.chunks {
			t.flat = append(t.flat, c.b...)
		}
	})
	return t.flat
}

// split appends to dst the chunks of b: as few as hold at most max bytes
// each, of about equal length (so an edit that makes a chunk one byte
// too long leaves two halves, not a chunk and a byte: typing in one place
// would otherwise leave a chunk per keystroke), each cut at a clean
// boundary (a rune start, not between "\r" and "\n").
func split(dst []chunk, b []byte, max int) []chunk {
	if len(b) == 0 {
		return dst
	}
	pieces := (len(b) + max - 1) / max
	size := (len(b) + pieces - 1) / pieces
	for len(b) > 0 {
		n := min(size, len(b))
		for n < len(b) && !cleanCut(b, n) {
			n++
		}
		dst = append(dst, chunk{b: b[:n:n]})
		b = b[n:]
	}
	return dst
}

// cleanCut reports whether b may be cut before b[n].
func cleanCut(b []byte, n int) bool {
	return utf8.RuneStart(b[n]) && !(b[n-1] == '\r' && b[n] == '\n')
}

// renumber sets the chunks' off and lines from chunk i on and the text's
// size and line count: chunks [i, j) are counted, the ones from j on
// (shared with the text before an edit) are shifted, not read.
func (t *Text) renumber(i, j int) {
	off, lines := 0, 0
	if i > 0 {
		p := t.chunks[i-1]
		off, lines = p.off+len(p.b), p.lines+countBreaks(p.b)
	}
	for ; i < j; i++ {
		t.chunks[i].off, t.chunks[i].lines = off, lines
		off += len(t.chunks[i].b)
		lines += countBreaks(t.chunks[i].b)
	}
	if j == len(t.chunks) {
		t.size, t.lines = off, lines
		return
	}
	dOff, dLines := off-t.chunks[j].off, lines-t.chunks[j].lines
	for ; j < len(t.chunks); j++ {
		t.chunks[j].off += dOff
		t.chunks[j].lines += dLines
	}
	last := t.chunks[len(t.chunks)-1]
	t.size, t.lines = last.off+len(last.b), last.lines+countBreaks(last.b)
}

// countBreaks counts the line breaks ending in b: "\n", and "\r" not
// followed by "\n" (a chunk never ends between the two).
func countBreaks(b []byte) int {
	n := 0
	for i, c := range b {
		if c == '\n' || (c == '\r' && (i+1 == len(b) || b[i+1] != '\n')) {
			n++
		}
	}
	return n
}

// replace returns the text with bytes [start, end) replaced by s; t is
// unchanged. The chunks holding start and end are joined with s and split
// again, with a neighbour when the joint would fall between "\r" and "\n"
// or leave a small chunk; the others are shared.
func (t *Text) replace(start, end int, s string) *Text {
	if len(t.chunks) == 0 {
		return newChunked([]byte(s), t.max)
	}
	first, last := t.chunkAt(start), t.chunkAt(end)
	lo, hi := t.chunks[first].off, t.chunks[last].off+len(t.chunks[last].b)
	mid := make([]byte, 0, hi-lo-(end-start)+len(s))
	mid = append(mid, t.chunks[first].b[:start-lo]...)
	mid = append(mid, s...)
	mid = append(mid, t.chunks[last].b[end-t.chunks[last].off:]...)
	for {
		switch {
		case first > 0 && (len(mid) < t.max/4 || !cleanJoin(t.chunks[first-1].b, mid)):
			first--
			mid = append(t.chunks[first].b[:len(t.chunks[first].b):len(t.chunks[first].b)], mid...)
			continue
		case last+1 < len(t.chunks) && (len(mid) < t.max/4 || !cleanJoin(mid, t.chunks[last+1].b)):
			last++
			mid = append(mid, t.chunks[last].b...)
			continue
		}
		break
	}
	n := &Text{max: t.max, chunks: make([]chunk, 0, len(t.chunks)+len(mid)/t.max+1)}
	n.chunks = append(n.chunks, t.chunks[:first]...)
	n.chunks = split(n.chunks, mid, t.max)
	counted := len(n.chunks)
	n.chunks = append(n.chunks, t.chunks[last+1:]...)
	n.renumber(first, counted)
	return n
}

// cleanJoin reports whether a chunk ending a may be followed by one
// starting b.
func cleanJoin(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	return utf8.RuneStart(b[0]) && !(a[len(a)-1] == '\r' && b[0] == '\n')
}

// chunkAt is the index of the chunk holding byte off (the last chunk for
// the end of the text).
func (t *Text) chunkAt(off int) int {
	i := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].off > off }) - 1
	return max(i, 0)
}

// LineStart is the function LineStart (position.go) on the text: the
// offset where LSP line n starts; false when the text has fewer lines.
func (t *Text) LineStart(n int) (int, bool) {
	if n == 0 {
		return 0, true
	}
	if n > t.lines {
		return t.size, false
	}
	// The chunk holding the n-th line break: the last whose lines before
	// it are fewer than n.
	i := sort.Search(len(t.chunks), func(i int) bool { return t.chunks[i].lines >= n }) - 1
	c := t.chunks[i]
	seen := c.lines
	for j, ch := range c.b {
		if ch == '\n' || (ch == '\r' && (j+1 == len(c.b) || c.b[j+1] != '\n')) {
			seen++
			if seen == n {
				return c.off + j + 1, true
			}
		}
	}
	return t.size, false // not reached: lines counts every break
}

// OffsetOf is the function OffsetOf (position.go) on the text: the line
// found by LineStart, then a scan of that line only.
func (t *Text) OffsetOf(p protocol.Position) (off int, exact bool) {
	start, ok := t.LineStart(int(p.Line))
	if !ok {
		return t.size, false
	}
	want := int(p.Character)
	units := 0
	for i := t.chunkAt(start); i < len(t.chunks); i++ {
		c := t.chunks[i]
		b := c.b[max(start-c.off, 0):]
		base := c.off + len(c.b) - len(b)
		for j := 0; j < len(b); {
			if b[j] == '\n' || b[j] == '\r' {
				return base + j, units == want
			}
			if units == want {
				return base + j, true
			}
			r, size := utf8.DecodeRune(b[j:]) // chunks end at rune starts
			n := runeUTF16Len(r)
			if units+n > want {
				return base + j, false
			}
			units += n
			j += size
		}
	}
	return t.size, units == want
}
