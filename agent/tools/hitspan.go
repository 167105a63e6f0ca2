package tools

import (
	"strings"

	"github.com/askls/askls/agent/unit"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// hitWindow picks the lines of a hit to show: the whole chunk when short,
// else a window around the first line of its best-matching excerpt.
func hitWindow(f *citations.LineIndex, h index.Hit) (int, int) {
	n := f.Count()
	start, end := clamp(h.Start, 1, max(n, 1)), clamp(h.End, 1, max(n, 1))
	if end < start {
		end = start
	}
	if end-start+1 <= hitWindowLines {
		return start, end
	}
	anchor := start
	first := ""
	for _, l := range strings.Split(h.Excerpt, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	if first != "" {
		text, _ := f.Lines(start, end)
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, first) {
				anchor = start + i
				break
			}
		}
	}
	s := max(start, anchor-2)
	if s-start <= 3 { // keep the chunk's head (its signature) when close
		s = start
	}
	e := min(end, s+hitWindowLines-1)
	return s, e
}

// hitSpan picks the lines of a search hit to show the model, for
// search_code (not yet called there: see docs/answers.md):
// the span of the unit the hit stands for that holds the most of the
// query's terms (ChooseSpan, the terms weighed alike), at most maxLines
// long; hitWindow when no unit holds a term.
func (tb *Box) hitSpan(query string, h index.Hit, f *citations.LineIndex, maxLines int) (int, int) {
	terms := unit.QuestionTerms(query)
	if len(terms) == 0 {
		return hitWindow(f, h)
	}
	syms, _ := tb.src.Outline(h.Path)
	ft := unit.NewFileTerms(f, h.Path, terms)
	weights := make([]float64, len(terms))
	for i := range weights {
		weights[i] = 1
	}
	var best unit.Span
	for _, u := range unit.OfHit(unit.Outline(f, h.Path, syms), h) {
		if sp := unit.ChooseSpan(ft, u, weights, maxLines); sp.Score > best.Score {
			best = sp
		}
	}
	if best.Score == 0 {
		return hitWindow(f, h)
	}
	return best.Start, best.End
}
