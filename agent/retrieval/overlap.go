package retrieval

import "github.com/askls/askls/agent/unit"

// citedAt is the lines e cites at place pos of the answer, as cite
// registers them: the first ShownEntries cite an excerpt (unit.Excerpt,
// which may leave the span for the unit's code: a class's excerpt can
// fall on a method's docstring), the others their span.
func citedAt(e *entry, pos int) unit.Span {
	if pos < ShownEntries && e.ft != nil {
		s, end := unit.Excerpt(e.ft, e.u, e.sp, e.weights)
		return unit.Span{Start: s, End: end}
	}
	return e.sp
}

// fits reports whether e may be cited at the next place of out. No two
// entries cite the same lines: neither e's span (the lines an entry
// stands for, checked as before) nor the lines it would cite there
// (citedAt) overlap an entry's span or cited lines. A
// container does not cite its member's lines: when e's unit holds an
// entry's, e's lines there do not overlap that entry's own lines (its doc
// comment and decorators included: ownLines), and when an entry's unit
// holds e's, its cited lines do not overlap e's own lines (a class's
// excerpt over a method's docstring, then the method). Nor does a
// container cite the lines of a first entry it holds (a question naming
// a class and its method is answered by the method, not by a window of
// the class over it).
func (c *chooser) fits(e *entry, out []entry) bool {
	lines := []unit.Span{e.sp, citedAt(e, len(out))}
	for i := range out {
		o := &out[i]
		if o.u.Path != e.u.Path {
			continue
		}
		if anyOverlap(lines, []unit.Span{o.sp, o.cited}) {
			return false
		}
		if holds(e.u, o.u) && anyOverlap(lines, []unit.Span{ownLines(o)}) {
			return false
		}
		if holds(o.u, e.u) && anyOverlap([]unit.Span{o.cited}, []unit.Span{ownLines(e)}) {
			return false
		}
	}
	for _, f := range c.cands {
		if f != e && f.first && f.u.Path == e.u.Path && holds(e.u, f.u) && anyOverlap(lines, []unit.Span{ownLines(f)}) {
			return false
		}
	}
	return true
}

// holds reports whether unit a holds unit b and is larger (a container
// and its member).
func holds(a, b unit.Unit) bool {
	return a.Start <= b.Start && b.End <= a.End && (a.Start < b.Start || b.End < a.End)
}

// ownLines are the lines of e's unit with the decorators above it
// (unit.OwnStart): a container's window there is the member's.
func ownLines(e *entry) unit.Span {
	if e.ft == nil {
		return unit.Span{Start: e.u.Start, End: e.u.End}
	}
	return unit.Span{Start: unit.OwnStart(e.ft, e.u), End: e.u.End}
}

// anyOverlap reports whether a line range of as overlaps one of bs (an
// empty range, 0-0, overlaps nothing).
func anyOverlap(as, bs []unit.Span) bool {
	for _, a := range as {
		for _, b := range bs {
			if a.End > 0 && b.End > 0 && a.Start <= b.End && b.Start <= a.End {
				return true
			}
		}
	}
	return false
}
