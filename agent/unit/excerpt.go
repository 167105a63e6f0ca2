package unit

import "strings"

// MaxExcerptLines is the most lines an entry of a retrieval answer shows
// under its label.
const MaxExcerptLines = 12

// Excerpt picks the lines of an entry to show and cite: a window of at
// most MaxExcerptLines lines of its span (see window), or of the unit's
// code when that holds more of the question: a span of a long doc
// comment or docstring (ChooseSpan cites one that holds the question)
// gives way to the code when the code holds at least half as much; the
// code is what answers how (a config loader's docstring restates the
// loop under it).
func Excerpt(ft *FileTerms, u Unit, sp Span, weights []float64) (start, end int) {
	s, e, sc := window(ft, u, sp, weights)
	if u.Decl < 1 || u.End <= u.Decl {
		return s, e
	}
	isDoc := docLines(ft, u)
	docs := 0
	for l := sp.Start; l <= sp.End; l++ {
		if isDoc(l) {
			docs++
		}
	}
	bs, be, bsc := window(ft, u, Span{Start: u.Decl, End: u.End}, weights)
	if bsc > sc+1e-9 || (docs*2 > sp.End-sp.Start+1 && bsc > 0 && bsc >= sc/2) {
		return bs, be
	}
	return s, e
}

// window picks the lines of sp to show: sp whole when it is at most
// MaxExcerptLines long, else the window of MaxExcerptLines lines that
// holds the most of the question's terms (weighted; more matching lines
// break ties), centred on its matching lines and cut to excerptContext
// lines around them. When the code of the unit
// (not its doc comment or docstring) holds a term of the question, only
// the code's matches count: the code is what answers how (a Python
// method's docstring restates the loop under it). A span with no match
// starts at the declaration when it holds it. score is the weighted
// count of the terms the window holds, as counted.
func window(ft *FileTerms, u Unit, sp Span, weights []float64) (start, end int, score float64) {
	sp.End = max(min(sp.End, ft.Count()), sp.Start)
	isDoc := docLines(ft, u)
	matches := func(l int) bool {
		for _, j := range ft.At(l) {
			if weights[j] > 0 {
				return true
			}
		}
		return false
	}
	codeOnly := false
	for l := sp.Start; l <= sp.End; l++ {
		if !isDoc(l) && matches(l) {
			codeOnly = true
			break
		}
	}
	counts := func(l int) bool { return matches(l) && (!codeOnly || !isDoc(l)) }
	held := func(s, e int) float64 {
		got := map[int]bool{}
		sc := 0.0
		for l := s; l <= e; l++ {
			if !counts(l) {
				continue
			}
			sc += densityBonus
			for _, j := range ft.At(l) {
				if !got[j] {
					got[j] = true
					sc += weights[j]
				}
			}
		}
		return sc
	}
	if sp.End-sp.Start+1 <= MaxExcerptLines {
		return sp.Start, sp.End, held(sp.Start, sp.End)
	}
	best, bestAt := 0.0, 0
	for s := sp.Start; s+MaxExcerptLines-1 <= sp.End; s++ {
		if sc := held(s, s+MaxExcerptLines-1); sc > best+1e-9 {
			best, bestAt = sc, s
		}
	}
	if bestAt == 0 {
		s := sp.Start
		if u.Decl > sp.Start && u.Decl <= sp.End {
			s = min(u.Decl, sp.End-MaxExcerptLines+1)
		}
		return s, s + MaxExcerptLines - 1, 0
	}
	first, last := 0, 0
	for l := bestAt; l < bestAt+MaxExcerptLines; l++ {
		if counts(l) {
			if first == 0 {
				first = l
			}
			last = l
		}
	}
	s := (first+last)/2 - (MaxExcerptLines-1)/2
	s = max(sp.Start, min(s, sp.End-MaxExcerptLines+1))
	// Matches close together need less: excerptContext lines around them.
	return max(s, first-excerptContext), min(s+MaxExcerptLines-1, last+excerptContext), best
}

// excerptContext is how many lines an excerpt keeps around its first and
// last matching lines when they are close together.
const excerptContext = 3

// docLines tells the lines of u that document it rather than do its work:
// the comment block above its declaration and a Python docstring under
// it.
func docLines(ft *FileTerms, u Unit) func(int) bool {
	dsStart, dsEnd := Docstring(ft, u)
	return func(l int) bool {
		return (u.Decl > 0 && l >= u.Start && l < u.Decl) || (dsStart > 0 && l >= dsStart && l <= dsEnd)
	}
}

// Docstring finds a Python docstring: the first statement under the
// declaration when it is a string literal in triple quotes, double or
// single, with an r/u/b prefix or none. It returns 0, 0 when there is none.
func Docstring(ft *FileTerms, u Unit) (start, end int) {
	if u.Decl < 1 || !strings.HasSuffix(u.Path, ".py") {
		return 0, 0
	}
	// The first non-blank line after the signature (which may span lines
	// and ends with ':').
	l := u.Decl
	for l <= u.End && l < u.Decl+20 && !strings.HasSuffix(strings.TrimSpace(stripHashComment(ft.Text(l))), ":") {
		l++
	}
	for l++; l <= u.End && strings.TrimSpace(ft.Text(l)) == ""; l++ {
	}
	if l > u.End {
		return 0, 0
	}
	t := strings.TrimLeft(strings.TrimSpace(ft.Text(l)), "rRuUbB")
	var quote string
	switch {
	case strings.HasPrefix(t, `"""`):
		quote = `"""`
	case strings.HasPrefix(t, `'''`):
		quote = `'''`
	default:
		return 0, 0
	}
	if strings.Contains(t[3:], quote) {
		return l, l
	}
	for e := l + 1; e <= u.End; e++ {
		if strings.Contains(ft.Text(e), quote) {
			return l, e
		}
	}
	return 0, 0
}

// stripHashComment drops a trailing "# comment" (roughly: a '#' after
// the last quote).
func stripHashComment(s string) string {
	q := strings.LastIndexAny(s, `"'`)
	if i := strings.IndexByte(s[q+1:], '#'); i >= 0 {
		return s[:q+1+i]
	}
	return s
}
