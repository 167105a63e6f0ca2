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
// left with no number is removed together with the spaces before it.
// Markdown code (fenced blocks, `inline` spans closed on their line) and
// index expressions (a[1]) are left alone.
//
// Write returns the text that is final; a '[' that may start a marker, a
// run of spaces or backticks at the end is held back until the next Write
// or Flush. A Rewriter is not safe for concurrent use.
type Rewriter struct {
	reg     *Registry
	current ContentFunc

	buf       string
	prev      byte // last byte written out, 0 at the start
	lineStart bool // only spaces since the last newline
	inFence   bool
	open      bool // a '[' or '(' was emitted and only marker bytes followed it
	// labelAtLineStart: a '[' that is not a marker opened this line.
	labelAtLineStart bool

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
	r.buf += text
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
	return r.capped(r.process(true))
}

// capped counts out against MaxAnswerBytes and cuts it there: at a rune
// boundary and before a '[' that would be left open.
func (r *Rewriter) capped(out string) string {
	if r.emitted+len(out) <= MaxAnswerBytes {
		r.emitted += len(out)
		return out
	}
	k := MaxAnswerBytes - r.emitted
	for k > 0 && k < len(out) && out[k]&0xC0 == 0x80 {
		k--
	}
	if open := strings.LastIndexByte(out[:k], '['); open >= 0 && !strings.Contains(out[open:k], "]") {
		k = open
	}
	r.cut, r.buf = true, ""
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
// decide before more text arrives (wait) leaves the rest in r.buf; so does
// a trailing partial lookalike bracket, unless final.
func (r *Rewriter) process(final bool) string {
	var out strings.Builder
	b := r.buf
	hold := ""
	if !final {
		if n := partialLookalike(b); n > 0 {
			b, hold = b[:len(b)-n], b[len(b)-n:]
		}
	}
	b = lookalikeBrackets.Replace(b)
	defer func() { r.buf += hold }()
	for i := 0; i < len(b); {
		next, wait := r.step(&out, b, i, final)
		if wait {
			r.buf = b[i:]
			return out.String()
		}
		i = next
	}
	r.buf = ""
	return out.String()
}

// step writes what b[i:] starts with (a run of backticks, a run of spaces,
// a marker, a label's ']', or one byte) and returns where the next step
// starts; wait is true when it cannot tell before more text arrives.
func (r *Rewriter) step(out *strings.Builder, b string, i int, final bool) (next int, wait bool) {
	c := b[i]
	switch {
	case c == '`':
		return r.backticks(out, b, i, final)
	case (c == ' ' || c == '\t') && !r.inCode():
		return r.spaces(out, b, i, final)
	case (c == '[' || c == '(' && r.prev != ']') && !r.inCode() && !isWordByte(r.prev):
		return r.opening(out, b, i, final)
	case c == ']' && r.labelAtLineStart && !r.inCode():
		// "[label]: url" at a line start would define a link that a
		// marker next to the label ("[1][label]") would follow.
		if i+1 == len(b) && !final {
			return i, true
		}
		r.labelAtLineStart = false
		r.write(out, "]")
		if i+1 < len(b) && b[i+1] == ':' {
			r.write(out, " ")
		}
		r.prev = c
		return i + 1, false
	default:
		r.write(out, b[i:i+1])
		switch c {
		case '\n':
			r.lineStart, r.labelAtLineStart = true, false
		case ' ', '\t':
		default:
			r.lineStart = false
		}
		r.prev = c
		return i + 1, false
	}
}

// backticks writes a run of backticks: three or more at a line start open
// or close a fence; outside a fence, a run opens a code span only when a
// run of the same length closes it on the same line (then the span is
// written as it is, markers in it left alone), else the run is plain text
// as a Markdown reader shows it ("const Usage = `…" cut in a label: the
// marker after it is a marker).
func (r *Rewriter) backticks(out *strings.Builder, b string, i int, final bool) (int, bool) {
	j := i
	for j < len(b) && b[j] == '`' {
		j++
	}
	if j == len(b) && !final {
		return i, true
	}
	end := j
	if j-i >= 3 && r.lineStart {
		r.inFence = !r.inFence
	} else if !r.inFence {
		k, st := closingRun(b, j, j-i, final)
		if st == needMore {
			return i, true
		}
		if st == isMarker {
			end = k
		}
	}
	r.write(out, b[i:end])
	r.prev, r.lineStart = '`', false
	return end, false
}

// closingRun looks for the run of exactly n backticks that closes a code
// span opened before from, on the same line: it returns the offset after
// it (isMarker), notMarker when the line ends first, or needMore when the
// text ends first and more may come.
func closingRun(b string, from, n int, final bool) (int, markerState) {
	for k := from; k < len(b); {
		switch b[k] {
		case '\n':
			return 0, notMarker
		case '`':
			m := k
			for m < len(b) && b[m] == '`' {
				m++
			}
			if m == len(b) && !final {
				return 0, needMore
			}
			if m-k == n {
				return m, isMarker
			}
			k = m
		default:
			k++
		}
	}
	if final {
		return 0, notMarker
	}
	return 0, needMore
}

// spaces writes a run of spaces and tabs outside code, or drops it together
// with the marker that follows it when that marker keeps no number.
func (r *Rewriter) spaces(out *strings.Builder, b string, i int, final bool) (int, bool) {
	j := i
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	if j == len(b) && !final {
		return i, true
	}
	if j < len(b) && (b[j] == '[' || b[j] == '(' && r.prev != ']') {
		text, end, st := r.marker(b, j, final)
		if st == needMore {
			return i, true
		}
		if st == isMarker {
			if text = r.markerText(text); text != "" {
				r.write(out, b[i:j])
				r.write(out, text)
				r.prev = ']'
			}
			return end, false
		}
	}
	r.write(out, b[i:j])
	r.prev = b[j-1]
	return j, false
}

// opening writes the marker that starts at b[i] ('[' or '('), rewritten,
// or the bracket itself when none starts there.
func (r *Rewriter) opening(out *strings.Builder, b string, i int, final bool) (int, bool) {
	c := b[i]
	atLineStart := r.lineStart
	text, end, st := r.marker(b, i, final)
	if st == needMore {
		return i, true
	}
	if st == isMarker {
		if text = r.markerText(text); text != "" {
			r.write(out, text)
			r.prev, r.lineStart = ']', false
			if atLineStart && end < len(b) && b[end] == ':' {
				// "[1]: x" would be a link reference definition.
				r.write(out, " ")
			}
		}
		return end, false
	}
	if c == '[' && atLineStart {
		r.labelAtLineStart = true
	}
	r.write(out, string(c))
	r.prev, r.lineStart = c, false
	return i + 1, false
}

// removedInBrackets stands for a removed marker that sits inside an open
// bracket or parenthesis ("[[9]1]", "(a.go:(x.go:9)4)"): deleting it
// outright would join the text around it into a new, unchecked marker
// ("[1]", "(a.go:4)"); the space after it keeps it from being read as
// part of a path or a number.
const removedInBrackets = "… "

// write emits s and tracks whether a '[' is open: followed so far only by
// bytes a marker may contain.
func (r *Rewriter) write(out *strings.Builder, s string) {
	out.WriteString(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[' || c == '(':
			r.open = true
		case !markerByte(c):
			r.open = false
		}
	}
}

func (r *Rewriter) inCode() bool { return r.inFence }

type fileState struct {
	lines *LineIndex
	err   error
}

type markerState int

const (
	notMarker markerState = iota
	isMarker
	needMore
)

// marker looks at a '[' (or '(') at b[i]. A marker is a numeric one
// ("[3]", "[1, 4]", "[2-5]", "[1; 9]") or a list of path references
// ("[a.go:10]", "[a.go#L10-L12]", "(a.go:3)", "[file:///…/a.go:1]");
// between parentheses only path references count ("(1)" is prose). For
// a marker it returns its replacement ("" when nothing valid is left)
// and the offset after it and any link target that follows it.
func (r *Rewriter) marker(b string, i int, final bool) (string, int, markerState) {
	closing := byte(']')
	if b[i] == '(' {
		closing = ')'
	}
	limit := maxMarkerLen
	if strings.HasPrefix(b[i+1:], "file:") || strings.HasPrefix("file:", b[i+1:]) {
		limit = maxURILen
	}
	j, numeric := i+1, true
	for ; j < len(b) && b[j] != closing; j++ {
		if !markerByte(b[j]) {
			return "", 0, notMarker
		}
		numeric = numeric && numericByte(b[j])
		if !numeric && j-i > limit {
			return "", 0, notMarker
		}
	}
	if j == len(b) {
		if final {
			return "", 0, notMarker
		}
		return "", 0, needMore
	}
	body := b[i+1 : j]
	ids, bad, ok := parseNumeric(body, r.reg.Len())
	if ok && closing == ')' {
		return "", 0, notMarker
	}
	if !ok {
		ids, bad, ok = r.refs(body)
		if !ok {
			return "", 0, notMarker
		}
	}
	end, st := r.linkAfter(b, j+1, final)
	if st == needMore {
		return "", 0, needMore
	}
	r.dropped = append(r.dropped, bad...)
	var nums []string
	seen := map[int]bool{}
	for _, id := range ids {
		n, ok := r.resolve(id)
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		nums = append(nums, strconv.Itoa(n))
	}
	if len(nums) == 0 {
		return "", end, isMarker
	}
	return "[" + strings.Join(nums, ", ") + "]", end, isMarker
}

// refs reads a marker body as a list of path references, each mapped to
// the evidence that covers its lines; ok is false when a part is not
// shaped like a path reference.
func (r *Rewriter) refs(body string) (ids []int, bad []string, ok bool) {
	parts := splitParts(body)
	if len(parts) == 0 {
		return nil, nil, false
	}
	var refs []pathRef
	for _, part := range parts {
		ref, shaped := parseRef(part)
		if !shaped {
			return nil, nil, false
		}
		refs = append(refs, ref)
	}
	for k, ref := range refs {
		id := 0
		if ref.valid {
			id = r.covering(ref.path, ref.lo, ref.hi, ref.uri)
		}
		if id == 0 {
			bad = append(bad, strings.TrimSpace(parts[k]))
			continue
		}
		ids = append(ids, id)
	}
	return ids, bad, true
}

// linkAfter skips the link targets "(…)" right after a marker: "[1](url)"
// would make the marker a link to somewhere else than its Location (and
// "[1]()(url)" once the first is gone).
func (r *Rewriter) linkAfter(b string, end int, final bool) (int, markerState) {
	for {
		next, st := linkTarget(b, end, final)
		if st == needMore {
			return end, needMore
		}
		if next == end {
			return end, isMarker
		}
		end = next
	}
}

// linkTarget returns the offset after a balanced "(…)" on one line at
// b[end], or end when there is none.
func linkTarget(b string, end int, final bool) (int, markerState) {
	if end == len(b) {
		if final {
			return end, isMarker
		}
		return end, needMore
	}
	if b[end] != '(' {
		return end, isMarker
	}
	depth := 0
	for k := end; k < len(b) && k-end <= maxLinkLen; k++ {
		switch b[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return k + 1, isMarker
			}
		case '\n':
			return end, isMarker
		}
	}
	if len(b)-end <= maxLinkLen && !final {
		return end, needMore
	}
	return end, isMarker
}

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

// covering finds the evidence that contains lines lo..hi of path p (p may
// be a suffix of the evidence path after a '/'): the smallest such span,
// 0 when none. It is how "[server.go:10-12]" becomes a checked citation.
func (r *Rewriter) covering(p string, lo, hi int, uri bool) int {
	best, bestLen := 0, 0
	for _, ev := range r.reg.All() {
		same := ev.Path == p || strings.HasSuffix(ev.Path, "/"+p)
		if uri {
			same = strings.HasSuffix(p, "/"+ev.Path) // an absolute path ends with the workspace path
		}
		if ev.forgotten || !same {
			continue
		}
		if ev.Start <= lo && hi <= ev.End && (best == 0 || ev.End-ev.Start < bestLen) {
			best, bestLen = ev.ID, ev.End-ev.Start
		}
	}
	return best
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
