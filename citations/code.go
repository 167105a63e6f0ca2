package citations

import "strings"

// Markdown code is left alone: a marker in it is code, not a citation,
// and nothing in it is escaped. What counts as code must be code for a
// markdown renderer too, or a link in "code" the renderer does not see as
// code would pass unescaped; so the rewriter follows CommonMark where it
// matters:
//
//   - a fence is a run of three or more backticks at a line start,
//     indented at most three spaces (a tab counts four), with no backtick
//     after it on its line; it is closed by a run at least as long with
//     nothing but spaces after it, and runs to the end of the answer when
//     it is not;
//   - inline code is a run of backticks and the next run of the same
//     length. The rewriter leaves it alone only when that run is on the
//     same line (within maxInlineCode bytes); else the run is text, and
//     what follows it is checked (escaped, even if a renderer then shows
//     it as code);
//   - inline code may run over lines in a paragraph, so the lengths of the
//     runs left open (r.openRuns) are kept until a blank line: a later run
//     of such a length closes code for a renderer, so it opens none, and
//     inline code is left alone only when no such run is inside it;
//   - a backtick after an odd run of backslashes is text;
//   - a line ends at "\n", "\r\n" or a lone "\r".

// maxInlineCode bounds how far the rewriter looks for the end of inline
// code (and so how much it holds back): longer inline code is checked as
// text.
const maxInlineCode = 512

// backtick writes one backtick of a run. The run is written as it comes
// and decides at its end (endTicks) whether it opens or closes code.
func (r *Rewriter) backtick(out *strings.Builder) {
	if r.ticks == 0 && r.slashes%2 == 1 && !r.inFence {
		r.write(out, "`")
		r.prev, r.lineStart = '`', false
		return
	}
	if r.ticks == 0 {
		r.tickStart, r.tickIndent = r.lineStart, r.indent
	}
	r.ticks++
	r.write(out, "`")
}

// endTicks ends a run of backticks at b[i], the byte after it: it opens or
// closes a fence, or opens inline code, which is then written whole up to
// its closing run (code is true, next is after it). wait is true when the
// closing run may be still to come.
func (r *Rewriter) endTicks(out *strings.Builder, b []byte, i int, final bool) (next int, wait, code bool) {
	n := r.ticks
	if n == 0 {
		return i, false, false
	}
	fenceLine := r.tickStart && r.tickIndent <= 3
	var rest lineRest
	if fenceLine && (r.inFence && n >= r.fence || !r.inFence && n >= 3) {
		var st markerState
		if rest, st = r.restOfLine(b, i, final); st == needMore {
			return i, true, false
		}
	}
	switch {
	case r.inFence:
		if fenceLine && n >= r.fence && rest == blank {
			r.inFence = false
		}
	case n >= 3 && fenceLine && rest != hasBacktick:
		r.inFence, r.fence = true, n
		r.openRuns = nil // a fence ends the paragraph
	case r.openRuns[n]:
		delete(r.openRuns, n) // it closes code a renderer sees
	default:
		end, st := r.inlineCode(b, i, n, final)
		if st == needMore {
			return i, true, false
		}
		if st == isMarker {
			r.write(out, string(b[i:end]))
			r.ticks, r.prev, r.lineStart = 0, '`', false
			return end, false, true
		}
		if r.openRuns == nil {
			r.openRuns = map[int]bool{}
		}
		r.openRuns[n] = true
	}
	r.ticks, r.prev, r.lineStart = 0, '`', false
	return i, false, false
}

// inlineCode looks for the run of exactly n backticks that closes inline
// code opened just before b[i], on the same line and within
// maxInlineCode bytes, with no run of an open length before it. It
// returns the offset after that run (isMarker), notMarker when there is
// none, or needMore.
func (r *Rewriter) inlineCode(b []byte, i, n int, final bool) (int, markerState) {
	k := i
	if r.memo.code > i {
		k = r.memo.code
	}
	for k < len(b) && b[k] != '\n' && b[k] != '\r' && k-i < maxInlineCode {
		r.scans++
		if b[k] != '`' {
			k++
			continue
		}
		m := k
		for m < len(b) && b[m] == '`' {
			m++
		}
		if m == len(b) && !final {
			r.memo.code = k
			return 0, needMore
		}
		if m-k == n {
			return m, isMarker
		}
		if r.openRuns[m-k] {
			return 0, notMarker
		}
		r.scans += m - k
		k = m
	}
	if k == len(b) && !final && k-i < maxInlineCode {
		r.memo.code = k
		return 0, needMore
	}
	return 0, notMarker
}

// lineRest is what follows a backtick run on its line.
type lineRest int

const (
	blank       lineRest = iota // only spaces and tabs
	text                        // other text, but no backtick
	hasBacktick                 // a backtick (or more than maxInlineCode bytes)
)

// restOfLine reads the rest of the line from b[i] far enough to tell a
// fence's opening run (no backtick follows on its line) and its closing
// run (only spaces follow). Past maxInlineCode bytes it answers what
// keeps the rewriter on the safe side: blank (a closing run closes) and
// hasBacktick (an opening run opens nothing).
func (r *Rewriter) restOfLine(b []byte, i int, final bool) (lineRest, markerState) {
	k, rest := i, blank
	if r.memo.line > i {
		k, rest = r.memo.line, r.memo.rest
	}
	for ; k < len(b) && b[k] != '\n' && b[k] != '\r'; k++ {
		r.scans++
		switch {
		case k-i >= maxInlineCode:
			if rest == blank {
				return blank, isMarker
			}
			return hasBacktick, isMarker
		case b[k] == '`':
			return hasBacktick, isMarker
		case b[k] != ' ' && b[k] != '\t':
			rest = text
		}
	}
	if k == len(b) && !final {
		r.memo.line, r.memo.rest = k, rest
		return rest, needMore
	}
	return rest, isMarker
}
