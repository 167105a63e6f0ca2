package citations

import (
	"bytes"
	"encoding/hex"
	"strings"
)

// Where a citation is now. Every citation askls shows carries the blake3
// hash of the lines it cited (SpanHash). When those lines are no longer
// where they were (edits above them, a thread reopened after the file
// changed, a buffer whose unsaved edits were thrown away) the citation is
// re-anchored to the nearest place in the file whose lines hash the same.
// It is stale only when no such place exists: the code is gone or changed.

// Tracked is a citation that follows its code through edits: an Anchor
// moved by each edit, and the hash and text of the lines it cited, by
// which it is found again where an edit touched them. It belongs to one
// goroutine at a time (the caller's lock).
type Tracked struct {
	Anchor *Anchor // its Content() is the file as the editor has it
	Hash   string  // SpanHash of the cited lines when cited ("" when already stale then)
	Text   string  // those lines (as Lines gives them): found again fast
	Lines  int     // how many lines it cited
	Gone   bool    // the file was deleted
}

// Track starts following c, which cites content: its hash and text are
// taken now, unless c is already stale.
func Track(c Citation, content []byte) *Tracked {
	t := &Tracked{Anchor: NewAnchor(c, content), Lines: c.End - c.Start + 1}
	if !c.Stale {
		t.Hash = SpanHash(content, c.Start, c.End)
		t.Text, _ = Lines(content, c.Start, c.End)
	}
	return t
}

// SpanHash is the hex blake3 hash of lines start..end (1-based, inclusive)
// of content, each ending in "\n" as Lines gives them: what a
// thread's evidence holds. "" when the lines are not all there.
func SpanHash(content []byte, start, end int) string {
	text, whole := Lines(content, start, end)
	if !whole {
		return ""
	}
	h := Hash(text)
	return hex.EncodeToString(h[:])
}

// Reanchor finds the lines of content that hash to hash and span as many
// lines as start..end did: at start itself when they are still there, else
// the nearest such place (above before below at equal distance). ok is
// false when no lines of content hash so. text, when known, is the cited
// lines themselves (as Lines gives them): they are then looked
// for directly, which is fast in a large file; without it every span of
// the same size is hashed.
func Reanchor(content []byte, start, end int, hash, text string) (newStart, newEnd int, ok bool) {
	if hash == "" || start < 1 || end < start {
		return start, end, false
	}
	if text != "" {
		return reanchorText(content, start, end, hash, text)
	}
	li := NewLineIndex(content)
	span := end - start
	last := li.Count() - span // the last line a span of this size can start at
	matches := func(s int) bool {
		if s < 1 || s > last {
			return false
		}
		text, whole := li.Lines(s, s+span)
		if !whole {
			return false
		}
		h := Hash(text)
		return hex.EncodeToString(h[:]) == hash
	}
	for d := 0; start-d >= 1 || start+d <= last; d++ {
		if matches(start - d) {
			return start - d, end - d, true
		}
		if d > 0 && matches(start+d) {
			return start + d, end + d, true
		}
	}
	return start, end, false
}

// reanchorText is Reanchor for cited lines whose text is known: each place
// the text starts a line and ends one is a candidate, the nearest to start
// whose lines hash to hash wins.
func reanchorText(content []byte, start, end int, hash, text string) (int, int, bool) {
	want := []byte(strings.TrimSuffix(text, "\n"))
	span := end - start
	best, bestDist := 0, -1
	for from := 0; from <= len(content); {
		i := bytes.Index(content[from:], want)
		if i < 0 {
			break
		}
		at := from + i
		from = at + 1
		after := at + len(want)
		if (at > 0 && content[at-1] != '\n') || (after < len(content) && content[after] != '\n') {
			continue
		}
		line := bytes.Count(content[:at], []byte{'\n'}) + 1
		d := line - start
		if d < 0 {
			d = -d
		}
		if (bestDist < 0 || d < bestDist) && SpanHash(content, line, line+span) == hash {
			best, bestDist = line, d
		}
		if len(want) == 0 {
			break
		}
	}
	if bestDist < 0 {
		return start, end, false
	}
	return best, best + span, true
}

// At is c as a citation of lines start..end of content, its byte offsets
// filled in (what NewAnchor and a front end's positions take).
func At(c Citation, content []byte, start, end int, stale bool) Citation {
	c.Start, c.End, c.Stale = start, end, stale
	c.StartByte, c.EndByte = LineSpan(content, start, end)
	return c
}

// Now is the citation where its code is now. The anchor follows edits;
// where an edit touched the cited lines it checks them against the hash
// taken when the answer was made: lines that hash the same again (an edit
// undone) are not stale, and lines found elsewhere (cut and pasted, or
// moved by a change the anchor could not follow) re-anchor the citation.
func (c *Tracked) Now() Citation {
	cc := c.Anchor.Citation()
	if c.Gone {
		cc.Stale = true
		return cc
	}
	if c.Hash == "" || c.Lines < 1 {
		return cc
	}
	content := c.Anchor.Content()
	if cc.End-cc.Start+1 == c.Lines && SpanHash(content, cc.Start, cc.End) == c.Hash {
		if cc.Stale {
			cc.Stale = false
			c.Anchor = NewAnchor(At(cc, content, cc.Start, cc.End, false), content)
		}
		return cc
	}
	if s, e, ok := Reanchor(content, cc.Start, cc.Start+c.Lines-1, c.Hash, c.Text); ok {
		cc = At(cc, content, s, e, false)
		c.Anchor = NewAnchor(cc, content)
		return cc
	}
	cc.Stale = true
	return cc
}

// Follow re-anchors c, which cites within evidence that was lines
// evStart..evEnd with text text hashing to hash (a thread's turn), in
// content (nil: the file is gone). It returns the citation where the code
// is now, stale when it is not there.
func Follow(c Citation, content []byte, evStart, evEnd int, hash, text string) Citation {
	s, _, ok := Reanchor(content, evStart, evEnd, hash, text)
	if !ok {
		return At(c, content, c.Start, c.End, true)
	}
	shift := s - evStart
	return At(c, content, c.Start+shift, c.End+shift, false)
}

// Relocate re-anchors a citation in new content that was not reached by
// edits: the cited text is looked for at its old offset, then at the
// occurrence nearest to it; if it is gone the citation is stale and keeps
// its line numbers (clamped).
func Relocate(a *Anchor, content []byte) *Anchor {
	c := a.Citation()
	old := a.Content()
	if c.StartByte < 0 || c.EndByte > len(old) || c.StartByte > c.EndByte {
		c.StartByte, c.EndByte = LineSpan(old, c.Start, c.End)
	}
	text := old[c.StartByte:c.EndByte]
	best := -1
	if c.EndByte <= len(content) && bytes.Equal(content[c.StartByte:c.EndByte], text) {
		best = c.StartByte
	} else if len(text) > 0 {
		for from := 0; ; {
			i := bytes.Index(content[from:], text)
			if i < 0 {
				break
			}
			at := from + i
			if atLineStart(content, at) && (best < 0 || abs(at-c.StartByte) < abs(best-c.StartByte)) {
				best = at
			}
			from = at + 1
		}
	}
	if best >= 0 {
		c.StartByte, c.EndByte = best, best+len(text)
	} else {
		c.Stale = true
		c.StartByte, c.EndByte = LineSpan(content, c.Start, c.End)
	}
	c.Start = bytes.Count(content[:c.StartByte], []byte{'\n'}) + 1
	c.End = c.Start + bytes.Count(content[c.StartByte:c.EndByte], []byte{'\n'})
	return NewAnchor(c, content)
}

func atLineStart(b []byte, i int) bool { return i == 0 || b[i-1] == '\n' }

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
