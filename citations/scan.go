package citations

import (
	"bytes"
	"strconv"
	"strings"
)

// memo is how far the text held back at the end of a Write was scanned:
// the next Write goes on from there instead of scanning it again. Offsets
// are into r.buf; a field is 0 when unset (a set one is never 0). It
// belongs to the step at the start of r.buf and is cleared once that
// step is done.
type memo struct {
	spaces  int      // the run of spaces at the start was scanned up to here
	markAt  int      // the marker at markAt ...
	mark    int      // ... was scanned up to here: marker bytes only so far
	numeric bool     // and they are numeric
	link    int      // the link targets after that marker were scanned up to here
	linkEnd int      // the offset after the last whole target
	depth   int      // parentheses open at link
	code    int      // inline code after a backtick run was scanned up to here
	line    int      // the line after a backtick run was scanned up to here
	rest    lineRest // and what it held so far (restOfLine)
}

// rebase makes the memo's offsets relative to b[held:], the text kept.
func (m *memo) rebase(held int) {
	if m.spaces > 0 {
		m.spaces -= held
	}
	if m.mark > 0 {
		m.mark -= held
		m.markAt -= held
	}
	if m.link > 0 {
		m.link -= held
		m.linkEnd -= held
	}
	if m.code > 0 {
		m.code -= held
	}
	if m.line > 0 {
		m.line -= held
	}
}

// maxHeldSpaces bounds the run of spaces held back while a marker may
// follow it: a dropped marker removes at most this many spaces before it.
const maxHeldSpaces = 64

// spaces writes a run of spaces and tabs outside code, or drops it together
// with the marker that follows it when that marker keeps no number. Of a
// longer run than maxHeldSpaces, all but the last maxHeldSpaces are
// written at once.
func (r *Rewriter) spaces(out *strings.Builder, b []byte, i int, final bool) (int, bool) {
	j := i
	if r.memo.spaces > i {
		j = r.memo.spaces
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
		r.scans++
	}
	if j-i > maxHeldSpaces {
		// The bytes before the run stay r.prev: what a marker after
		// the run means does not depend on how the run was cut.
		r.writeSpaces(out, string(b[i:j-maxHeldSpaces]))
		i = j - maxHeldSpaces
	}
	if j == len(b) && !final {
		r.memo.spaces = j
		return i, true
	}
	if j < len(b) && (b[j] == '[' || b[j] == '(' && r.prev != ']') {
		text, end, st := r.marker(b, j, final)
		if st == needMore {
			r.memo.spaces = j
			return i, true
		}
		if st == isMarker {
			if text = r.markerText(text); text != "" {
				r.writeSpaces(out, string(b[i:j]))
				r.writeMarker(out, text, b, end)
			} else if r.prev == '<' {
				// "< [9]/" must not become "</": the spaces stay.
				r.writeSpaces(out, string(b[i:j]))
				r.prev = b[j-1]
			} else {
				r.tickGap = r.prev == '`'
			}
			return end, false
		}
	}
	r.writeSpaces(out, string(b[i:j]))
	r.prev = b[j-1]
	return j, false
}

// writeMarker writes a rewritten marker that ended at b[end]; the line
// no longer starts there.
func (r *Rewriter) writeMarker(out *strings.Builder, text string, b []byte, end int) {
	atLineStart := r.lineStart && r.indent <= 3
	r.write(out, text)
	r.prev, r.lineStart = ']', false
	if atLineStart && end < len(b) && b[end] == ':' {
		// "[1]: x" would be a link reference definition.
		r.write(out, " ")
	}
}

// writeSpaces writes spaces and counts a line's indentation.
func (r *Rewriter) writeSpaces(out *strings.Builder, s string) {
	r.write(out, s)
	if r.lineStart {
		r.indent += len(s) + 3*strings.Count(s, "\t")
	}
}

// opening writes the marker that starts at b[i] ('[' or '('), rewritten,
// or the bracket itself when none starts there ('[' escaped).
func (r *Rewriter) opening(out *strings.Builder, b []byte, i int, final bool) (int, bool) {
	c := b[i]
	text, end, st := r.marker(b, i, final)
	if st == needMore {
		return i, true
	}
	if st == isMarker {
		if text = r.markerText(text); text != "" {
			r.writeMarker(out, text, b, end)
		} else {
			r.tickGap = r.prev == '`'
		}
		return end, false
	}
	if c == '[' {
		r.escaped(out, c)
	} else {
		r.write(out, string([]byte{c}))
	}
	r.prev, r.lineStart = c, false
	return i + 1, false
}

// write emits s and tracks whether a '[' is open (followed so far only by
// bytes a marker may contain) and how many backslashes end the output.
func (r *Rewriter) write(out *strings.Builder, s string) {
	out.WriteString(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[' || c == '(':
			r.open = true
		case !markerByte(c):
			r.open = false
		}
		if s[i] == '\\' {
			r.slashes++
		} else {
			r.slashes = 0
		}
	}
}

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
// and the offset after it and any link target that follows it. A numeric
// body longer than maxNumericLen is dropped as it comes (r.dropping).
func (r *Rewriter) marker(b []byte, i int, final bool) (string, int, markerState) {
	closing := byte(']')
	if b[i] == '(' {
		closing = ')'
	}
	limit := maxMarkerLen
	if rest := b[i+1 : min(len(b), i+6)]; bytes.HasPrefix(rest, fileScheme) || bytes.HasPrefix(fileScheme, rest) {
		limit = maxURILen
	}
	j, numeric := i+1, true
	if r.memo.mark > 0 && r.memo.markAt == i {
		j, numeric = r.memo.mark, r.memo.numeric
	}
	for ; j < len(b) && b[j] != closing; j++ {
		r.scans++
		if !markerByte(b[j]) {
			return "", 0, notMarker
		}
		numeric = numeric && numericByte(b[j])
		if !numeric && j-i > limit {
			return "", 0, notMarker
		}
		if numeric && j-i > maxNumericLen {
			if closing == ')' || !bytes.ContainsAny(b[i+1:j+1], "0123456789") {
				return "", 0, notMarker
			}
			return r.overlong(b[i+1 : j+1]), j + 1, isMarker
		}
	}
	if j == len(b) {
		if final {
			return "", 0, notMarker
		}
		r.memo.markAt, r.memo.mark, r.memo.numeric = i, j, numeric
		return "", 0, needMore
	}
	r.memo.markAt, r.memo.mark, r.memo.numeric = i, j, numeric
	end, st := r.linkAfter(b, j+1, final)
	if st == needMore {
		return "", 0, needMore
	}
	ids, bad, ok := r.parseBody(string(b[i+1:j]), closing)
	if !ok {
		return "", 0, notMarker
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

var fileScheme = []byte("file:")

// overlong starts dropping a numeric marker longer than maxNumericLen
// ("[1, 1, 1, …" on and on): a stream cannot hold it back until it
// closes, and left as text it would read as a marker nobody checked. The
// rest of its numbers, and its ']', are dropped as they come.
func (r *Rewriter) overlong(body []byte) string {
	r.dropping = true
	r.dropped = append(r.dropped, strings.TrimSpace(string(body[:32]))+"…")
	return ""
}

// parseBody reads a marker's body as numbers or path references, as it is
// or, when that fails, normalised (a lookalike: "７", "7\u200b"). ok is
// false when it is neither: then it is prose.
func (r *Rewriter) parseBody(body string, closing byte) (ids []int, bad []string, ok bool) {
	ids, bad, ok = r.parseForm(body, closing)
	if !ok && !isASCII(body) {
		ids, bad, ok = r.parseForm(normalizeMarker(body), closing)
	}
	return ids, bad, ok
}

func (r *Rewriter) parseForm(body string, closing byte) (ids []int, bad []string, ok bool) {
	if ids, bad, ok = parseNumeric(body, r.reg.Len()); ok {
		if closing == ')' {
			return nil, nil, false
		}
		return ids, bad, true
	}
	return r.refs(body)
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
			id = r.reg.covering(ref.path, ref.lo, ref.hi, ref.uri)
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
// "[1]()(url)" once the first is gone). Targets end on their line and
// within maxLinkLen bytes of the marker, all of them; what is left is
// text, and its '(' is escaped (step).
func (r *Rewriter) linkAfter(b []byte, start int, final bool) (int, markerState) {
	end, k, depth := start, start, 0
	if r.memo.link > 0 {
		end, k, depth = r.memo.linkEnd, r.memo.link, r.memo.depth
	}
	for ; k < len(b); k++ {
		r.scans++
		if depth == 0 && b[k] != '(' || k-start >= maxLinkLen || b[k] == '\n' {
			return end, isMarker
		}
		switch b[k] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				end = k + 1
			}
		}
	}
	if final {
		return end, isMarker
	}
	r.memo.link, r.memo.linkEnd, r.memo.depth = k, end, depth
	return end, needMore
}
