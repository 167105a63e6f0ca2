package retrieval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/agent/unit"
	"github.com/askls/askls/index"
	"github.com/askls/askls/rank"
)

// Sizes of a retrieval answer.
const (
	// retrievalHits is how many entries (cited units) an answer shows.
	retrievalHits = 10
	// Pool is how many search hits the entries are chosen from.
	Pool = 10
	// maxPerFile caps the entries of one file.
	maxPerFile = 3
	// expandFiles is how many of the best files have all their units
	// weighed, not only the ones the hits stand for.
	expandFiles = 5
	// maxExpandLines: a file longer than this is weighed through its
	// hits only.
	maxExpandLines = 5000
)

// Header opens every retrieval answer, so that it is never taken
// for a model's answer.
const Header = "**Retrieval mode: no model wrote this.** The code that best matches the question, ranked; each entry is cited."

// WeakLine opens a retrieval answer whose evidence is weak (see weak).
const WeakLine = "Nothing here clearly answers this; the closest code is:"

// Write answers a.Text without a model: the units of code that best
// match the question, each cited on the lines that match it (registered
// in a.Registry), under a header saying that no model wrote it.
// Definitions of the identifiers the question names as code (and the
// symbol at the cursor) come first, then the ranked units, then where the
// named functions are called. A question the index refuses
// (index.ErrBadQuery: too long) is an error, not an empty answer.
func Write(ctx context.Context, a Ask) (Answer, error) {
	r := &run{q: a, src: a.Src, tb: a.Box, reg: a.Registry, prior: a.Prior, record: a.Record}
	if r.record == nil {
		r.record = func(tools.Step, string) {}
	}
	terms := unit.QuestionTerms(r.searchText())
	hits, err := r.rankedHits(ctx, terms)
	if err != nil {
		return Answer{}, err
	}
	defs := append(r.definitions(), r.followDefs()...)
	first := append(r.cursorContext(terms), defs...)
	entries, weak := r.chooseEntries(terms, first, hits)
	if weak && len(entries) > ShownEntries {
		entries = entries[:ShownEntries] // weak evidence: the closest three, no more
	}
	cs := r.cite(entries)

	var b strings.Builder
	if weak && len(cs) > 0 {
		b.WriteString(WeakLine + "\n\n")
		r.weak = true
	}
	b.WriteString(Header + "\n")
	b.WriteString(r.buildsOn())
	if len(cs) > 0 {
		b.WriteString("\n" + lead(cs[0].e, cs[0].id) + "\n")
	}
	n := min(len(cs), ShownEntries)
	impl, implOK := index.Symbol{}, false
	if asksForImplementations(r.q.Text) {
		impl, implOK = r.implementableDef(first)
	}
	switch {
	case implOK:
		// The definition, then the types that implement or extend it
		// (the ranked units would only repeat their declarations, or
		// share the question's words).
		if nFirst := firstCount(cs); nFirst > 0 {
			n = min(n, nFirst)
		}
		writeShown(&b, cs[:n])
		citedAbove := r.writeImplementations(ctx, &b, impl)
		writeAlso(&b, holdingSites(cs, n, nil)[n:], citedAbove)
	case asksForCallers(r.q.Text):
		// The definitions, then every call or use; the ranked code is
		// listed under them.
		if nFirst := firstCount(cs); nFirst > 0 {
			n = min(n, nFirst)
		}
		writeShown(&b, cs[:n])
		citedAbove, sites, listed := r.writeAllUses(ctx, &b, defs)
		if listed {
			cs = holdingSites(cs, n, sites)
		}
		writeAlso(&b, cs[n:], citedAbove)
	default:
		writeShown(&b, cs[:n])
		writeAlso(&b, cs[n:], nil)
		r.writeUses(ctx, &b, defs)
	}
	return Answer{Text: b.String(), Weak: r.weak}, nil
}

// rankedHits searches for the question, implementation first: test files
// are left out, then added after the rest when the question is about
// tests or nothing else matched.
func (r *run) rankedHits(ctx context.Context, terms []unit.Term) ([]index.Hit, error) {
	query := r.searchText()
	search := func(f index.Filter) ([]index.Hit, error) {
		t0 := time.Now()
		hits, err := r.src.Search(ctx, query, Pool, f)
		stepArgs := map[string]any{"query": query, "limit": Pool}
		if f.NoTests {
			stepArgs["no_tests"] = true
		}
		step := tools.Step{Tool: "search_code", Args: stepArgs, MS: msSince(t0)}
		if err != nil {
			step.Summary = "error: " + err.Error()
		} else {
			step.Summary = fmt.Sprintf("%d hits", len(hits))
		}
		r.record(step, tools.Describe("search_code", tools.Args{"query": query}))
		return hits, err
	}
	hits, err := search(index.Filter{NoTests: true})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, index.ErrBadQuery) {
			return nil, fmt.Errorf("the question cannot be searched: %w", err)
		}
		return nil, nil // an index failure leaves the definitions and the refusal
	}
	if len(hits) > 0 && !asksAboutTests(terms) {
		return hits, nil
	}
	all, err := search(index.Filter{})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return hits, nil
	}
	for _, h := range all {
		if tools.IsTestPath(h.Path) {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// asksAboutTests: the question is about tests (test, testing, benchmark,
// fixture, mock...).
func asksAboutTests(terms []unit.Term) bool {
	for _, t := range terms {
		switch t.Stem {
		case "test", "tests", "testing", "benchmark", "fixtur", "mock", "spec", "unittest", "pytest":
			return true
		}
	}
	return false
}

// firstCount is the number of entries that are definitions or the unit
// at the cursor (they come first).
func firstCount(cs []cited) int {
	n := 0
	for _, c := range cs {
		if c.e.first {
			n++
		}
	}
	return n
}

// asksForCallers: the question is about where something is called or
// used (in its own words: a quoted "Usage: ..." line is not); then every
// call or use goes right after the definitions.
func asksForCallers(q string) bool {
	for _, w := range strings.Fields(strings.ToLower(rank.WithoutQuotes(q))) {
		switch strings.Trim(w, ".,?!:;\"'`") {
		case "called", "calls", "caller", "callers", "invoked", "used", "uses", "usage", "usages", "references":
			return true
		}
	}
	return false
}

// holdingSites keeps the first n entries, the definitions, and the
// entries whose unit holds one of sites: an answer that lists every
// occurrence of a name answers with them (and the units they are in), and
// a ranked unit that only shares the question's words ("calls", "used",
// a part of the name) or names it in a comment is not about it.
func holdingSites(cs []cited, n int, sites []tools.Reference) []cited {
	out := cs[:n:n]
	for _, c := range cs[n:] {
		keep := c.e.first
		for _, s := range sites {
			if keep {
				break
			}
			keep = s.Path == c.e.u.Path && s.Line >= c.e.u.Start && s.Line <= c.e.u.End
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

// langOf is a code fence's language: the unit's, else the extension.
func langOf(lang, p string) string {
	if lang != "" {
		return lang
	}
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return ""
}
