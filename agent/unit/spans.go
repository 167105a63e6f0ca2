package unit

import (
	"fmt"
	"math"
	"strings"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// MaxSpanLines is the longest span a retrieval answer cites from one unit;
// a unit up to this long is cited whole.
const MaxSpanLines = 25

// Unit is a declaration a citation is taken from: a function, method,
// type or variable with its doc comment, or, where the outline has no
// symbol, the index's chunk.
type Unit struct {
	Path       string
	Start, End int    // the whole unit, doc comment included
	Decl       int    // line of the declaration (0: none known)
	Symbol     string // "Server.Shutdown"
	Kind       string // symbol kind, "" for a chunk
	Sig        string // one-line signature, may be ""
	Lang       string
}

func (u Unit) Key() string { return fmt.Sprintf("%s:%d-%d", u.Path, u.Start, u.End) }

// Span is the part of a unit a citation covers.
type Span struct {
	Start, End int
	Score      float64 // weighted share of the question's terms in the span and the signature, 0..1
}

// FileTerms holds which question terms each line of a file holds,
// tokenized on first use: a retrieval answer reads a few units of a file,
// not all of it.
type FileTerms struct {
	LineIndex *citations.LineIndex
	Terms     []Term
	lines     [][]int // line i+1 -> indexes of the terms it holds
	done      []bool  // line i+1 is tokenized
	Path      string
	inPath    map[int]bool // see pathTerms
}

func NewFileTerms(f *citations.LineIndex, p string, terms []Term) *FileTerms {
	n := f.Count()
	return &FileTerms{LineIndex: f, Path: p, Terms: terms, lines: make([][]int, n), done: make([]bool, n)}
}

// PathTerms are the terms the file's path holds: a name the question
// writes may be a folder's ("Django", "net/http").
func (ft *FileTerms) PathTerms() map[int]bool {
	if ft.inPath == nil {
		ft.inPath = map[int]bool{}
		set := lineTerms(ft.Path, ft.Terms)
		for j := range ft.Terms {
			if set&(1<<uint(j)) != 0 {
				ft.inPath[j] = true
			}
		}
	}
	return ft.inPath
}

// Count is the number of lines of the file.
func (ft *FileTerms) Count() int { return len(ft.lines) }

// At returns the terms line l holds (1-based); none for a line outside
// the file (a unit's range from an older index can run past its end).
func (ft *FileTerms) At(l int) []int {
	if l < 1 || l > len(ft.lines) {
		return nil
	}
	if !ft.done[l-1] {
		ft.done[l-1] = true
		text, _ := ft.LineIndex.Lines(l, l)
		set := lineTerms(text, ft.Terms)
		for j := range ft.Terms {
			if set&(1<<uint(j)) != 0 {
				ft.lines[l-1] = append(ft.lines[l-1], j)
			}
		}
	}
	return ft.lines[l-1]
}

// Text is line l (1-based, in range).
func (ft *FileTerms) Text(l int) string {
	t, _ := ft.LineIndex.Lines(l, l)
	return t
}

// Has reports the terms of lines start..end (1-based, inclusive).
func (ft *FileTerms) Has(start, end int) map[int]bool {
	out := map[int]bool{}
	for l := max(start, 1); l <= min(end, ft.Count()); l++ {
		for _, j := range ft.At(l) {
			out[j] = true
		}
	}
	return out
}

// unitLines clamps u's lines to the file and returns them with the sum
// of weights (1 when it is 0), the denominator of a span's share.
func unitLines(ft *FileTerms, u Unit, weights []float64) (start, end int, total float64) {
	start, end = max(u.Start, 1), min(u.End, ft.Count())
	if end < start {
		end = start
	}
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		total = 1
	}
	return start, end, total
}

// densityBonus is what a line holding a term adds to a window's score: a
// tie-breaker, far below a term's weight.
const densityBonus = 0.001

// ChooseSpan picks the lines of u to cite for a question: u whole when it
// is at most maxLines long. A longer unit with code under its declaration
// is cited in its code (the doc comment restates what the label's
// signature names; the code is what answers how): its last maxLines
// lines when the code fits, else the window of at most maxLines lines of
// the code that holds the most of the question's terms, each weighted by
// weights, trimmed to its matches with 2 lines of context. The doc
// comment and the declaration line count for every window (they are the
// entry's context). A long doc comment that holds docOverCode times what
// the code's window holds of the question is cited instead: it is the
// explanation asked for (runtime.GOMAXPROCS's "# Default" section). A
// unit that is all comment (a package comment) is windowed as a whole.
// score is the weighted share of the terms the span and its context hold.
func ChooseSpan(ft *FileTerms, u Unit, weights []float64, maxLines int) Span {
	start, end, total := unitLines(ft, u, weights)
	if end-start+1 <= maxLines {
		sc, _ := windowScore(ft, start, end, nil, weights)
		return Span{start, end, sc / total}
	}
	from := start
	context := map[int]bool{}
	if u.Decl >= start && u.Decl < end {
		from = u.Decl
		context = ft.Has(start, u.Decl)
	}
	var s, e int
	if end-from+1 <= maxLines {
		s, e = end-maxLines+1, end
	} else {
		s, e = bestWindow(ft, from, end, context, weights, maxLines)
	}
	if docEnd := from - 1; docEnd-start+1 > maxLines/2 {
		ds, de := bestWindow(ft, start, docEnd, nil, weights, maxLines)
		docOwn, _ := windowScore(ft, ds, de, nil, weights)
		codeOwn, _ := windowScore(ft, s, e, nil, weights)
		if docOwn > docOverCode*codeOwn {
			s, e = ds, de
		}
	}
	sc, _ := windowScore(ft, s, e, context, weights)
	return Span{s, e, sc / total}
}

// docOverCode: how much more of the question a long doc comment must hold
// than the code's best window to be cited instead of the code.
const docOverCode = 2

// bestWindow returns the window of at most maxLines lines of from..to
// that holds the most of the question's terms (context counting for
// every window), trimmed to its matches with 2 lines of context.
func bestWindow(ft *FileTerms, from, to int, context map[int]bool, weights []float64, maxLines int) (s, e int) {
	if to-from+1 <= maxLines {
		s, e = from, to
	} else {
		best, bestAt := -1.0, from
		for s := from; s+maxLines-1 <= to; s++ {
			sc, dense := windowScore(ft, s, s+maxLines-1, context, weights)
			if sc+dense > best+1e-9 {
				best, bestAt = sc+dense, s
			}
		}
		s, e = bestAt, bestAt+maxLines-1
	}
	first, last := 0, 0
	for l := s; l <= e; l++ {
		if len(ft.At(l)) > 0 {
			if first == 0 {
				first = l
			}
			last = l
		}
	}
	if first > 0 {
		s, e = max(s, first-2), min(e, last+2)
	}
	return s, e
}

// docWeight is how much a match in a unit's doc comment counts against a
// match in its code when choosing the span of a long unit: the signature
// stays in view in the label, and the code is what answers how.
const docWeight = 0.6

// Share is how well a unit matches the question, the score entries
// are ranked by: the weighted share of the question's terms held by the
// best window of at most maxLines lines over the whole unit, doc comment
// included (its matches weigh docWeight), the declaration line counting
// for every window.
func Share(ft *FileTerms, u Unit, weights []float64, maxLines int) float64 {
	start, end, total := unitLines(ft, u, weights)
	sig := map[int]bool{}
	if u.Decl >= start && u.Decl <= end {
		sig = ft.Has(u.Decl, u.Decl)
	}
	// lineW is the weight of a line's matches.
	lineW := func(l int) float64 {
		if l < u.Decl && IsCommentLine(ft.Text(l)) {
			return docWeight
		}
		return 1
	}
	if end-start+1 <= maxLines {
		sc, _ := windowScoreW(ft, start, end, sig, weights, func(int) float64 { return 1 })
		return sc / total
	}
	best, bestAt := -1.0, start
	for s := start; s+maxLines-1 <= end; s++ {
		sc, dense := windowScoreW(ft, s, s+maxLines-1, sig, weights, lineW)
		if sc+dense > best+1e-9 {
			best, bestAt = sc+dense, s
		}
	}
	sc, _ := windowScoreW(ft, bestAt, bestAt+maxLines-1, sig, weights, lineW)
	return sc / total
}

// windowScoreW is windowScore with a weight per line.
func windowScoreW(ft *FileTerms, s, e int, sig map[int]bool, weights []float64, lineW func(int) float64) (sc, dense float64) {
	got := make([]float64, len(weights))
	for j := range sig {
		got[j] = 1
	}
	for l := s; l <= e; l++ {
		lw := lineW(l)
		ts := ft.At(l)
		for _, j := range ts {
			got[j] = max(got[j], lw)
		}
		if len(ts) > 0 {
			dense += densityBonus
		}
	}
	for j, g := range got {
		sc += g * weights[j]
	}
	return sc, dense
}

// windowScore is the weighted count of distinct terms held by lines
// s..e or the context. dense is densityBonus per line that holds a term:
// of two windows with the same terms, the one with more matching lines
// wins.
func windowScore(ft *FileTerms, s, e int, context map[int]bool, weights []float64) (sc, dense float64) {
	got := make([]float64, len(weights))
	for j := range context {
		got[j] = 1
	}
	for l := s; l <= e; l++ {
		ts := ft.At(l)
		for _, j := range ts {
			got[j] = 1
		}
		if len(ts) > 0 {
			dense += densityBonus
		}
	}
	for j, g := range got {
		sc += g * weights[j]
	}
	return sc, dense
}

// TermWeights weighs each term by how rare it is among the units found
// for the question (an inverse document frequency over them): a term that
// every candidate holds says little about which one answers. Terms from
// words written as code weigh more.
func TermWeights(terms []Term, held []map[int]bool) []float64 {
	n := float64(len(held))
	w := make([]float64, len(terms))
	for j, t := range terms {
		df := 0.0
		for _, h := range held {
			if h[j] {
				df++
			}
		}
		w[j] = math.Log(1 + (n+1)/(df+0.5))
		if t.Code {
			w[j] *= 1.5
		}
	}
	return w
}

// Outline are the units of a file: every symbol but fields, with its
// doc comment, and a Go file's package comment (the overview of a
// package: "package iter" in iter/iter.go, lines 5-211).
func Outline(f *citations.LineIndex, p string, syms []index.Symbol) []Unit {
	var out []Unit
	if u, ok := packageDoc(f, p); ok {
		out = append(out, u)
	}
	for _, s := range syms {
		if s.Kind == "field" || s.Line < 1 {
			continue
		}
		label := s.QualifiedName()
		out = append(out, Unit{
			Path: p, Start: DocStart(f, s.Line), End: max(s.EndLine, s.Line), Decl: s.Line,
			Symbol: label, Kind: s.Kind, Sig: s.Signature, Lang: s.Language,
		})
	}
	return out
}

// packageDoc is the package comment of a Go file with the package clause
// under it, when it is at least 3 lines long.
func packageDoc(f *citations.LineIndex, p string) (Unit, bool) {
	if !strings.HasSuffix(p, ".go") {
		return Unit{}, false
	}
	for l := 1; l <= min(f.Count(), 400); l++ {
		text, _ := f.Lines(l, l)
		if !strings.HasPrefix(text, "package ") {
			continue
		}
		start := DocStart(f, l)
		if l-start < 3 {
			return Unit{}, false
		}
		name := strings.TrimSpace(text)
		return Unit{Path: p, Start: start, End: l, Decl: l, Symbol: name, Kind: "package", Sig: name, Lang: "go"}, true
	}
	return Unit{}, false
}

// OfHit maps a search hit to the units it stands for: the smallest
// unit that holds most of the hit (a window of a long function stands for
// the function), else every outermost unit the hit overlaps (the index
// merges small neighbours into one chunk) that is more than 3 lines long,
// else the hit's own lines (a block of one-line vars or
// consts, a file without symbols).
func OfHit(units []Unit, h index.Hit) []Unit {
	hlen := h.End - h.Start + 1
	var inner *Unit
	for i, u := range units {
		over := min(u.End, h.End) - max(u.Start, h.Start) + 1
		if over*4 >= hlen*3 && (inner == nil || u.End-u.Start < inner.End-inner.Start) {
			inner = &units[i]
		}
	}
	if inner != nil {
		return []Unit{*inner}
	}
	var out []Unit
	for i, u := range units {
		if u.End < h.Start || u.Start > h.End {
			continue
		}
		outer := true
		for j, v := range units {
			if j != i && v.Start <= u.Start && u.End <= v.End && (v.Start < u.Start || v.End > u.End) && !(v.End < h.Start || v.Start > h.End) {
				outer = false
				break
			}
		}
		if outer {
			out = append(out, u)
		}
	}
	var long []Unit
	for _, u := range out {
		if u.End-u.Start+1 > 3 {
			long = append(long, u)
		}
	}
	if len(long) > 0 {
		return long
	}
	// Only short units (a block of vars or consts): the chunk is the unit.
	return []Unit{{Path: h.Path, Start: h.Start, End: h.End, Symbol: h.Symbol, Kind: h.Kind, Lang: h.Language}}
}

// CutLabel keeps a signature to one short line.
func CutLabel(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= 100 {
		return s
	}
	k := 100
	for k > 0 && s[k]&0xC0 == 0x80 {
		k--
	}
	return s[:k] + "…"
}

// DocStart is the first line of the comment block right above line: line
// comments, or one /* */ block.
func DocStart(f *citations.LineIndex, line int) int {
	if above, _ := f.Lines(line-1, line-1); line > 1 && strings.HasSuffix(strings.TrimSpace(above), "*/") {
		for l := line - 1; l >= 1 && l >= line-2000; l-- {
			if text, _ := f.Lines(l, l); strings.HasPrefix(strings.TrimSpace(text), "/*") {
				return l
			}
		}
	}
	for line > 1 {
		text, _ := f.Lines(line-1, line-1)
		if !IsCommentLine(text) {
			break
		}
		line--
	}
	return line
}

// OwnStart is the first line that belongs to u: its doc comment (u.Start)
// and the decorators or annotations above it (`@cached_property`,
// `@Override`, each on its line; not in Ruby, where `@x` is a
// variable), with a comment above them. A
// container's lines there are its member's.
func OwnStart(ft *FileTerms, u Unit) int {
	l := u.Start
	for l > 1 {
		if u.Lang != "ruby" && strings.HasPrefix(strings.TrimSpace(ft.Text(l-1)), "@") { // not Ruby's @ivar = …
			l--
			continue
		}
		d := DocStart(ft.LineIndex, l)
		if d == l {
			break
		}
		l = d
	}
	return l
}

func IsCommentLine(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "/*") ||
		strings.HasPrefix(s, "*") || strings.HasPrefix(s, "--") || strings.HasPrefix(s, `"""`)
}
