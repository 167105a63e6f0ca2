package citations

import (
	"fmt"
	"strconv"
	"strings"
)

// ContentFunc returns the current content of a file (an index snapshot's
// Content).
type ContentFunc func(path string) ([]byte, error)

// Rewriter checks and renumbers the citation markers of an answer while it
// streams. Each marker's numbers are looked up in the registry: a number
// that names nothing registered (or a file that cannot be read any more) is
// dropped, a citation whose text no longer hashes the same is marked stale,
// and the survivors are renumbered 1..k in order of first use. A marker
// left with no number is removed together with the spaces before it (at
// most maxHeldSpaces of them). A marker's text is normalised before it is
// read (see normalizeMarker), so that a lookalike ("[７]", "[7\u200b]") is
// checked like the marker it reads as. Markdown code (fenced blocks,
// `inline`) and index expressions (a[1]) are left alone.
//
// Outside code the answer carries no active content (see active.go): a
// '[' that is not a checked marker, a '<' that could open HTML or an
// autolink (or before a '[' or '(' whose marker or reference may be
// removed), and a '(' right after a ']' are escaped with a backslash, so
// no link, image or HTML survives; the only links are the markers.
//
// Write returns the text that is final; a '[' that may start a marker, a
// run of spaces or a '<' at the end is held back until the next Write or
// Flush. What is held back is scanned once: the scan's position is kept
// (memo) and the next Write goes on from there, and how much is held is
// bounded (maxMarkerLen, maxURILen, maxNumericLen, maxLinkLen,
// maxHeldSpaces), so checking is linear in the answer's length. A Rewriter
// is not safe for concurrent use.
type Rewriter struct {
	reg     *Registry
	current ContentFunc

	buf     []byte // normalised text not yet final (held back)
	partial string // the start of a lookalike bracket at the end of the last Write
	memo    memo   // how far the held text was scanned already
	scans   int    // bytes the scanning loops looked at: the work done, for tests

	prev       byte // last byte written out, 0 at the start
	lineStart  bool // only spaces since the last newline
	indent     int  // spaces since the last newline, while lineStart
	inFence    bool
	fence      int  // length of the backtick run that opened the fence
	ticks      int  // length of the run of backticks being written
	tickStart  bool // the run began a line (after tickIndent spaces)
	tickIndent int
	openRuns   map[int]bool // lengths of backtick runs left open in the paragraph
	open       bool         // a '[' or '(' was emitted and only marker bytes followed it
	slashes    int          // backslashes just written: odd, the next byte is escaped
	dropping   bool         // inside a numeric marker over maxNumericLen: dropped
	tickGap    bool         // a marker right after a backtick was dropped: a backtick next must not join it

	emitted int  // bytes returned so far
	cut     bool // MaxAnswerBytes reached: the rest is dropped

	files   map[string]fileState // current content by path, read once
	num     map[int]int          // evidence id -> citation number, 0 when dropped
	cits    []Citation
	dropped []string
}

// NewRewriter returns a Rewriter checking markers against reg, with file
// contents from current.
func NewRewriter(reg *Registry, current ContentFunc) *Rewriter {
	return &Rewriter{reg: reg, current: current, lineStart: true, num: map[int]int{}, files: map[string]fileState{}}
}

// MaxAnswerBytes caps the text a Rewriter returns, like tool results are
// capped: a model that writes on and on (10 MB) gives an answer cut here,
// with a note saying so.
const MaxAnswerBytes = 32 << 10

// Write adds text and returns what can be emitted now.
func (r *Rewriter) Write(text string) string {
	if r.cut {
		return ""
	}
	text = r.partial + text
	r.partial = ""
	if n := partialLookalike(text); n > 0 {
		text, r.partial = text[:len(text)-n], text[len(text)-n:]
	}
	r.buf = append(r.buf, lookalikeBrackets.Replace(text)...)
	return r.capped(r.process(false))
}

// Flush returns everything held back.
func (r *Rewriter) Flush() string {
	if r.cut {
		note := "\n\n… (the answer was cut at " + strconv.Itoa(MaxAnswerBytes>>10) + " KB)"
		if r.inFence {
			note = "\n```" + note
		}
		return note
	}
	r.buf = append(r.buf, lookalikeBrackets.Replace(r.partial)...)
	r.partial = ""
	return r.capped(r.process(true))
}

// capped counts out against MaxAnswerBytes and cuts it there: at a rune
// boundary and before a marker's '[' that would be left open (an escaped
// '[' is text).
func (r *Rewriter) capped(out string) string {
	if r.emitted+len(out) <= MaxAnswerBytes {
		r.emitted += len(out)
		return out
	}
	k := MaxAnswerBytes - r.emitted
	for k > 0 && k < len(out) && out[k]&0xC0 == 0x80 {
		k--
	}
	if open := strings.LastIndexByte(out[:k], '['); open >= 0 && !strings.Contains(out[open:k], "]") && (open == 0 || out[open-1] != '\\') {
		k = open
	}
	r.cut, r.buf = true, nil
	r.emitted += k
	return out[:k]
}

// Citations returns the citations used so far, numbered 1..k.
func (r *Rewriter) Citations() []Citation { return append([]Citation(nil), r.cits...) }

// Dropped returns what was cited but named nothing valid, in order: the
// numbers ("7") and the path references ("x.go:10-12").
func (r *Rewriter) Dropped() []string { return append([]string(nil), r.dropped...) }

// Validate checks a whole answer at once: the rewritten text, its
// citations and the dropped numbers.
func Validate(answer string, reg *Registry, current ContentFunc) (string, []Citation, []string) {
	r := NewRewriter(reg, current)
	text := r.Write(answer) + r.Flush()
	return text, r.Citations(), r.Dropped()
}

// process rewrites r.buf and returns what is final. A step that cannot
// decide before more text arrives (wait) leaves the rest in r.buf, with
// the memo of how far it scanned.
func (r *Rewriter) process(final bool) string {
	var out strings.Builder
	b := r.buf
	for i := 0; i < len(b); {
		next, wait := r.step(&out, b, i, final)
		if wait {
			r.memo.rebase(next)
			r.buf = b[next:]
			return out.String()
		}
		r.memo = memo{} // it was the first step's, which is done
		i = next
	}
	r.buf = b[:0]
	if final {
		r.endTicks(&out, b[:0], 0, true)
	}
	return out.String()
}

// step writes what b[i:] starts with (a run of spaces, a marker, a byte to
// escape, or one byte) and returns where the next step starts; wait is
// true when it cannot tell before more text arrives: then b[next:] is held.
func (r *Rewriter) step(out *strings.Builder, b []byte, i int, final bool) (next int, wait bool) {
	r.scans++
	c := b[i]
	sep := r.tickGap
	r.tickGap = false
	if r.ticks > 0 && c != '`' {
		if next, wait, code := r.endTicks(out, b, i, final); wait || code {
			return next, wait
		}
	}
	if r.dropping {
		if numericByte(c) || c == ']' {
			r.dropping = c != ']'
			return i + 1, false
		}
		r.dropping = false
	}
	switch {
	case c == '`':
		if sep {
			// A marker dropped between two backticks: a space keeps
			// them two runs, as the model wrote them ("`a`[9]`b`").
			r.write(out, " ")
		}
		r.backtick(out)
		return i + 1, false
	case r.inFence:
	case c == ' ' || c == '\t':
		return r.spaces(out, b, i, final)
	case c == '[' && !isWordByte(r.prev) || c == '(' && r.prev != ']' && !isWordByte(r.prev):
		return r.opening(out, b, i, final)
	case c == '<' && i+1 == len(b) && !final:
		return i, true // "<a" is HTML, "< b" is not
	case r.mustEscape(b, i):
		r.escaped(out, c)
		r.prev, r.lineStart = c, false
		return i + 1, false
	}
	r.write(out, string(b[i:i+1]))
	switch c {
	case '\n', '\r': // "\r\n" is one line end
		if r.lineStart && !r.inFence && (c == '\r' || r.prev != '\r') {
			r.openRuns = nil // a blank line ends the paragraph
		}
		r.lineStart, r.indent = true, 0
	case ' ':
		if r.lineStart {
			r.indent++
		}
	case '\t':
		if r.lineStart {
			r.indent += 4
		}
	default:
		r.lineStart = false
	}
	r.prev = c
	return i + 1, false
}

// mustEscape reports whether b[i] is written escaped: a '[' that is not
// a marker's, a '(' right after a ']', a '<' that could open HTML or an
// autolink, or a '<' before a '[' or '(' (the marker or reference after
// it may be removed, which would join it to what follows: "<[0]Y" would
// become "<Y").
func (r *Rewriter) mustEscape(b []byte, i int) bool {
	switch c := b[i]; c {
	case '[':
		return true
	case '(':
		return r.prev == ']'
	case '<':
		return i+1 < len(b) && (opensHTML(b[i+1]) || b[i+1] == '[' || b[i+1] == '(')
	}
	return false
}

// removedInBrackets stands for a removed marker that sits inside an open
// bracket or parenthesis ("[[9]1]", "(a.go:(x.go:9)4)"): deleting it
// outright would join the text around it into a new, unchecked marker
// ("[1]", "(a.go:4)"); the space after it keeps it from being read as
// part of a path or a number.
const removedInBrackets = "… "

// resolve maps an evidence id to its citation number, creating the
// citation on first use.
func (r *Rewriter) resolve(id int) (int, bool) {
	if n, ok := r.num[id]; ok {
		return n, n > 0
	}
	ev, ok := r.reg.Get(id)
	var lines *LineIndex
	var err error
	if ok {
		f, seen := r.files[ev.Path]
		if !seen {
			var c []byte
			c, f.err = r.current(ev.Path)
			f.lines = NewLineIndex(c)
			r.files[ev.Path] = f
		}
		lines, err = f.lines, f.err
	}
	if !ok || err != nil {
		r.num[id] = 0
		r.dropped = append(r.dropped, strconv.Itoa(id))
		return 0, false
	}
	c := Citation{
		N:       len(r.cits) + 1,
		Path:    ev.Path,
		Start:   ev.Start,
		End:     ev.End,
		Symbol:  ev.Symbol,
		Excerpt: Excerpt(ev.Text),
	}
	text, whole := lines.Lines(ev.Start, ev.End)
	c.Stale = !whole || Hash(text) != ev.Hash
	c.StartByte, c.EndByte = LineSpan(lines.Content(), ev.Start, ev.End)
	r.cits = append(r.cits, c)
	r.num[id] = c.N
	return c.N, true
}

// Excerpt shortens evidence text for display: at most 6 lines and 400
// bytes, cut at a rune boundary, with "…" when cut.
func Excerpt(text string) string {
	text = strings.TrimRight(text, "\n")
	cut := false
	if lines := strings.SplitN(text, "\n", 7); len(lines) > 6 {
		text = strings.Join(lines[:6], "\n")
		cut = true
	}
	if len(text) > 400 {
		k := 400
		for k > 0 && text[k]&0xC0 == 0x80 {
			k--
		}
		text = text[:k]
		cut = true
	}
	if cut {
		text += "…"
	}
	return text
}

// String formats a citation as path:start-end for logs.
func (c Citation) String() string {
	return fmt.Sprintf("[%d] %s:%d-%d", c.N, c.Path, c.Start, c.End)
}

// markerText is what a checked marker becomes in the output: its
// renumbered text, a placeholder where a removed marker leaves brackets
// open, or nothing.
func (r *Rewriter) markerText(text string) string {
	if text == "" && r.open {
		return removedInBrackets
	}
	return text
}
