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
// Markdown code (fenced blocks, `inline`) and index expressions (a[1]) are
// left alone.
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
	inInline  bool
	open      bool // a '[' was emitted and only marker bytes followed it

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

// Write adds text and returns what can be emitted now.
func (r *Rewriter) Write(text string) string {
	r.buf += text
	return r.process(false)
}

// Flush returns everything held back.
func (r *Rewriter) Flush() string { return r.process(true) }

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

func (r *Rewriter) process(final bool) string {
	var out strings.Builder
	b := r.buf
	i := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == '`':
			j := i
			for j < len(b) && b[j] == '`' {
				j++
			}
			if j == len(b) && !final {
				r.buf = b[i:]
				return out.String()
			}
			if j-i >= 3 && r.lineStart {
				r.inFence = !r.inFence
				r.inInline = false
			} else if !r.inFence {
				r.inInline = !r.inInline
			}
			r.write(&out, b[i:j])
			r.prev, r.lineStart = '`', false
			i = j
		case (c == ' ' || c == '\t') && !r.inCode():
			j := i
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			if j == len(b) && !final {
				r.buf = b[i:]
				return out.String()
			}
			if j < len(b) && b[j] == '[' {
				text, end, st := r.marker(b, j, final)
				if st == needMore {
					r.buf = b[i:]
					return out.String()
				}
				if st == isMarker {
					if text = r.markerText(text); text != "" {
						r.write(&out, b[i:j])
						r.write(&out, text)
						r.prev = ']'
					}
					i = end
					continue
				}
			}
			r.write(&out, b[i:j])
			r.prev = b[j-1]
			i = j
		case c == '[' && !r.inCode() && !isWordByte(r.prev):
			text, end, st := r.marker(b, i, final)
			if st == needMore {
				r.buf = b[i:]
				return out.String()
			}
			if st == isMarker {
				if text = r.markerText(text); text != "" {
					r.write(&out, text)
					r.prev = ']'
				}
				i = end
				continue
			}
			r.write(&out, "[")
			r.prev, r.lineStart = c, false
			i++
		default:
			r.write(&out, b[i:i+1])
			switch c {
			case '\n':
				r.lineStart, r.inInline = true, false
			case ' ', '\t':
			default:
				r.lineStart = false
			}
			r.prev = c
			i++
		}
	}
	r.buf = ""
	return out.String()
}

// removedInBrackets stands for a removed marker that sits inside an open
// bracket ("[[9]1]"): deleting it outright would join the text around it
// into a new, unchecked marker ("[1]").
const removedInBrackets = "…"

// write emits s and tracks whether a '[' is open: followed so far only by
// bytes a marker may contain.
func (r *Rewriter) write(out *strings.Builder, s string) {
	out.WriteString(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			r.open = true
		case c == ']' || !markerByte(c):
			r.open = false
		}
	}
}

func (r *Rewriter) inCode() bool { return r.inFence || r.inInline }

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

// marker looks at a '[' at b[i]. For a marker it returns its replacement
// ("" when nothing valid is left) and the offset after its ']'.
func (r *Rewriter) marker(b string, i int, final bool) (string, int, markerState) {
	j, numeric := i+1, true
	for ; j < len(b) && b[j] != ']'; j++ {
		if !markerByte(b[j]) {
			return "", 0, notMarker
		}
		numeric = numeric && numericByte(b[j])
		if !numeric && j-i > maxMarkerLen {
			return "", 0, notMarker
		}
	}
	if j == len(b) {
		if final {
			return "", 0, notMarker
		}
		return "", 0, needMore
	}
	ids, ok := parseMarker(b[i+1:j], r.reg.Len())
	if !ok {
		p, lo, hi, isRef := parsePathRef(b[i+1 : j])
		if !isRef {
			return "", 0, notMarker
		}
		id := r.covering(p, lo, hi)
		if id == 0 {
			r.dropped = append(r.dropped, b[i+1:j])
			return "", j + 1, isMarker
		}
		ids = []int{id}
	}
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
		return "", j + 1, isMarker
	}
	return "[" + strings.Join(nums, ", ") + "]", j + 1, isMarker
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
func (r *Rewriter) covering(p string, lo, hi int) int {
	best, bestLen := 0, 0
	for _, ev := range r.reg.All() {
		if ev.forgotten || !(ev.Path == p || strings.HasSuffix(ev.Path, "/"+p)) {
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
