package retrieval

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/rank"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
	"github.com/askls/askls/words"
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
// used; then every call or use goes right after the definitions.
func asksForCallers(q string) bool {
	for _, w := range strings.Fields(strings.ToLower(q)) {
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

// entry is one cited unit of a retrieval answer.
type entry struct {
	u     unit.Unit
	sp    unit.Span
	ft    *unit.FileTerms
	prior float64      // from the unit's rank in the search (0 when no hit stands for it)
	first bool         // a definition or the unit at the cursor: shown first, in order
	held  map[int]bool // the question terms the unit holds
	share float64      // unitShare
	score float64
	// weights are the question terms' weights (TermWeights), for the
	// excerpt an entry shows.
	weights []float64
}

// Weighing of the units (see chooseEntries).
const (
	// rankWeight is the weight of the search rank against Share
	// (0..1). The constants of this block were chosen on the three sets
	// of testdata/eval with main's ranking (docs/answers.md).
	rankWeight = 0.5
	// notCodeFactor scales the score of documentation, generated files and
	// declaration files (NotCode) unless the question asks about
	// documentation: a question about how something is done is answered
	// by code.
	notCodeFactor = 0.5
	// sameFile scales a unit's score for each entry of its file already
	// chosen, so that the first entries cover more than one file.
	sameFile = 0.8
)

// chooseEntries picks the units to cite and their spans. The units are
// those the search hits stand for, plus every unit of the best
// expandFiles files (the hit that found a file is not always its best
// unit; files over maxExpandLines only through their hits); each is
// scored by Share (the weighted share of the question's terms its
// best window holds) plus rankWeight times a prior from the search rank
// (1/(1+0.3·rank) for a hit's unit, 0.5/(1+rank of its file) for a unit
// found by its file), halved for NotCode files. first (definitions, the
// cursor) keep their order ahead of the rest and do not count against
// their file. weak says whether the evidence does not
// clearly answer the question (see isWeak).
func (r *run) chooseEntries(terms []unit.Term, first []index.Hit, hits []index.Hit) (_ []entry, weak bool) {
	c := &chooser{r: r, terms: terms, fts: map[string]*unit.FileTerms{}, unitsOf: map[string][]unit.Unit{}, at: map[string]*entry{}}
	c.addFirst(first)
	files := c.addHits(hits)
	c.addFiles(files)
	if len(c.cands) == 0 {
		return nil, false
	}
	c.score()
	out, nFirst := c.pick()
	return out, isWeak(out[nFirst:], nFirst, terms)
}

// chooser holds the candidate units of one retrieval answer while
// chooseEntries gathers, scores and picks them.
type chooser struct {
	r       *run
	terms   []unit.Term
	fts     map[string]*unit.FileTerms // nil: the file cannot be read
	unitsOf map[string][]unit.Unit
	at      map[string]*entry // by unit.key
	cands   []*entry
}

// load reads a file's lines and units once.
func (c *chooser) load(p string) (*unit.FileTerms, []unit.Unit, bool) {
	if ft, ok := c.fts[p]; ok {
		return ft, c.unitsOf[p], ft != nil
	}
	f, err := c.r.tb.File(p)
	if err != nil {
		c.fts[p] = nil
		return nil, nil, false
	}
	ft := unit.NewFileTerms(f, p, c.terms)
	syms, _ := c.r.src.Outline(p)
	us := unit.Outline(f, p, syms)
	c.fts[p], c.unitsOf[p] = ft, us
	return ft, us, true
}

// add makes u a candidate, or raises the prior of the candidate it is.
func (c *chooser) add(u unit.Unit, ft *unit.FileTerms, prior float64, isFirst bool) {
	if e, ok := c.at[u.Key()]; ok {
		e.prior = max(e.prior, prior)
		e.first = e.first || isFirst
		return
	}
	e := &entry{u: u, ft: ft, prior: prior, first: isFirst}
	c.at[u.Key()] = e
	c.cands = append(c.cands, e)
}

// addFirst adds the definitions and the unit at the cursor, each as the
// outline's unit with the same lines when there is one.
func (c *chooser) addFirst(first []index.Hit) {
	for _, h := range first {
		ft, us, ok := c.load(h.Path)
		if !ok {
			continue
		}
		u := unit.Unit{Path: h.Path, Start: h.Start, End: h.End, Symbol: h.Symbol, Kind: h.Kind, Lang: h.Language}
		for _, v := range us {
			if v.End == h.End && v.Start == h.Start {
				u = v
			}
		}
		c.add(u, ft, 1, true)
	}
}

// addHits adds the units the search hits stand for, with a prior from
// the hit's rank, and returns the hits' files in rank order. Tests are
// left out unless the question is about tests or a test came first.
func (c *chooser) addHits(hits []index.Hit) []string {
	var files []string
	seen := map[string]bool{}
	aboutTests := asksAboutTests(c.terms)
	for rank, h := range hits {
		if !aboutTests && tools.IsTestPath(h.Path) && !tools.IsTestPath(hits[0].Path) {
			continue // tests are shown for a question about tests, or when nothing else matched
		}
		ft, us, ok := c.load(h.Path)
		if !ok {
			continue
		}
		if !seen[h.Path] {
			seen[h.Path] = true
			files = append(files, h.Path)
		}
		for _, u := range unit.OfHit(us, h) {
			c.add(u, ft, 1/(1+0.3*float64(rank)), false)
		}
	}
	return files
}

// addFiles adds every unit of the best expandFiles files (except those
// over maxExpandLines), with a prior from the file's rank.
func (c *chooser) addFiles(files []string) {
	aboutTests := asksAboutTests(c.terms)
	for i, p := range files[:min(len(files), expandFiles)] {
		ft, us, _ := c.load(p)
		if ft.Count() > maxExpandLines {
			continue // its hits stand for it: weighing all of it costs more than it finds
		}
		for _, u := range us {
			if !aboutTests && corpus.TestUnit(u.Lang, u.Symbol) {
				continue // a Rust file's own tests, as the search leaves them out
			}
			if u.End-u.Start+1 >= 3 { // not each line of a block of vars
				c.add(u, ft, 0.5/(1+float64(i)), false)
			}
		}
	}
}

// score sets each candidate's span, share and score; a candidate that
// holds no term of the question, while others hold some, keeps score 0.
func (c *chooser) score() {
	held := make([]map[int]bool, len(c.cands))
	anyHeld := false
	for i, e := range c.cands {
		held[i] = e.ft.Has(e.u.Start, e.u.End)
		e.held = held[i]
		anyHeld = anyHeld || len(held[i]) > 0
	}
	weights := unit.TermWeights(c.terms, held)
	aboutDocs := asksAboutDocs(c.r.q.Text, c.terms)
	for i, e := range c.cands {
		e.weights = weights
		if len(held[i]) == 0 && !e.first && anyHeld {
			continue
		}
		e.sp = unit.ChooseSpan(e.ft, e.u, weights, unit.MaxSpanLines)
		e.share = unit.Share(e.ft, e.u, weights, unit.MaxSpanLines)
		e.score = e.share + rankWeight*e.prior
		if !aboutDocs && tools.NotCode(e.u.Path) {
			e.score *= notCodeFactor
		}
	}
}

// pick returns the first entries (definitions, the cursor) in order,
// then up to retrievalHits entries by score, each scaled by sameFile per
// entry of its file already taken, at most maxPerFile a file, none
// overlapping an entry taken. nFirst is the number of first entries.
func (c *chooser) pick() (out []entry, nFirst int) {
	for _, e := range c.cands {
		if e.first {
			out = append(out, *e) // not counted against its file: a section of its own
		}
	}
	nFirst = len(out)
	perFile := map[string]int{}
	for len(out) < retrievalHits {
		var best *entry
		bestScore := 0.0
		for _, e := range c.cands {
			if e.first || e.score == 0 || perFile[e.u.Path] >= maxPerFile || overlapsAny(e, out) {
				continue
			}
			sc := e.score
			for k := 0; k < perFile[e.u.Path]; k++ {
				sc *= sameFile
			}
			if best == nil || sc > bestScore {
				best, bestScore = e, sc
			}
		}
		if best == nil {
			break
		}
		best.score = -1 // taken
		out = append(out, *best)
		perFile[best.u.Path]++
	}
	return out, nFirst
}

// asksAboutDocs: the question is about documentation, asks for an
// explanation (rank.IsDocWord) or an overview (rank.AsksForOverview), or
// asks about a project's history (its changelog is the answer then).
func asksAboutDocs(q string, terms []unit.Term) bool {
	if rank.AsksForOverview(q) {
		return true
	}
	for _, t := range terms {
		if rank.IsDocWord(t.Word) {
			return true
		}
	}
	return false
}

func overlapsAny(e *entry, out []entry) bool {
	for _, o := range out {
		if o.u.Path == e.u.Path && e.sp.Start <= o.sp.End && o.sp.Start <= e.sp.End {
			return true
		}
	}
	return false
}

// weakShare is the share of the question's weighted terms below which
// the best of the first three spans is no evidence (see isWeak),
// calibrated on the absent questions of the three sets in testdata/eval
// against their answerable ones (figures in docs/answers.md).
const weakShare = 0.15

// isWeak decides whether the evidence does not clearly answer the
// question. It is weak when there is no ranked unit; when the question
// writes a name (QUIC, Brotli, GenerateFromPassword: see Term.Name) that
// neither the first three units (their text or path) nor the rest of
// their files hold; or when the best of the first three spans holds less
// than weakShare of the question's weighted terms. A question that names a
// definition that exists (defs > 0) is never weak: its definition is
// cited first.
func isWeak(ranked []entry, defs int, terms []unit.Term) bool {
	if defs > 0 {
		return false
	}
	if len(ranked) == 0 {
		return true
	}
	top := ranked[:min(len(ranked), 3)]
	best := 0.0
	for _, e := range top {
		best = max(best, e.share)
	}
	if best < weakShare {
		return true
	}
	for j, t := range terms {
		if !t.Name {
			continue
		}
		inTop := false
		for _, e := range top {
			if e.held[j] || e.ft.PathTerms()[j] {
				inTop = true
			}
		}
		if inTop {
			continue
		}
		// Not in the first units: is it anywhere in their files?
		inFiles := false
		for _, e := range top {
			if e.ft.Has(1, e.ft.Count())[j] {
				inFiles = true
				break
			}
		}
		if !inFiles {
			return true
		}
	}
	return false
}

// maxDefinitions caps the definitions a retrieval answer puts first, and
// maxDefinitionsPerName those of one identifier.
const (
	maxDefinitions        = 4
	maxDefinitionsPerName = 2
)

var (
	identRE    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	backtickRE = regexp.MustCompile("`([^`\n]+)`")
)

// identifiers picks the names a question writes unambiguously as code:
// in backticks (`foo`), qualified (errors.Is, http.Server), camel case
// with a capital after a lower-case letter (DetectContentType, ServeHTTP)
// or snake case of more than one part (max_len). Plain English words are
// never identifiers: not a capitalised word ("Content-Type", "Server"),
// not an all-capital one ("HTTP"), not "e.g.".
func identifiers(q string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, m := range backtickRE.FindAllStringSubmatch(q, -1) {
		inner := strings.TrimSuffix(strings.TrimSpace(m[1]), "()")
		if w := identRE.FindString(inner); w != "" && len(w) == len(inner) {
			add(w)
		}
	}
	for _, w := range identRE.FindAllString(backtickRE.ReplaceAllString(q, " "), -1) {
		if words.IsCode(w) && qualifiedOK(w) {
			add(w)
		}
	}
	return out
}

// qualifiedOK rejects dotted abbreviations (e.g, i.e): every part of a
// dotted name is at least two characters long.
func qualifiedOK(w string) bool {
	for _, p := range strings.Split(w, ".") {
		if len(strings.Trim(p, "_")) < 2 {
			return !strings.Contains(w, ".")
		}
	}
	return true
}

// definitions finds the declarations of the identifiers in the question
// (exact names; "pkg.Name" and "Type.Method" narrow by folder or
// container), as hits over the whole unit with its doc comment.
func (r *run) definitions() []index.Hit {
	var out []index.Hit
	for _, id := range identifiers(r.q.Text) {
		parts := strings.Split(id, ".")
		name, qual := parts[len(parts)-1], ""
		if len(parts) > 1 {
			qual = parts[len(parts)-2]
		}
		t0 := time.Now()
		limit := 20
		if qual != "" {
			limit = 200 // "http.Get": many types have a Get method; the function may come late
		}
		syms := r.src.Symbols(name, limit)
		found := 0
		for _, s := range syms {
			if s.Name != name || tools.IsTestPath(s.Path) {
				continue
			}
			// "Type.Method" names a container; "pkg.Name" a package-level
			// name in a folder named like the package.
			if qual != "" && s.Container != qual && (s.Container != "" || path.Base(path.Dir(s.Path)) != qual) {
				continue
			}
			f, err := r.tb.File(s.Path)
			if err != nil {
				continue
			}
			label := s.QualifiedName()
			out = append(out, index.Hit{Path: s.Path, Start: unit.DocStart(f, s.Line), End: max(s.EndLine, s.Line), Symbol: label, Kind: s.Kind, Language: s.Language})
			found++
			if len(out) == maxDefinitions || found == maxDefinitionsPerName {
				break
			}
		}
		step := tools.Step{Tool: "find_symbol", Args: map[string]any{"name": id}, Summary: fmt.Sprintf("%d definitions", found), MS: msSince(t0)}
		r.record(step, tools.Describe("find_symbol", tools.Args{"name": id}))
		if len(out) == maxDefinitions {
			break
		}
	}
	return out
}

// atCursor is the innermost symbol around the cursor (Question.Path and
// Line), as a hit over the whole unit with its doc comment: "this" in a
// question usually means it.
func (r *run) atCursor() []index.Hit {
	if r.q.Path == "" || r.q.Line < 1 {
		return nil
	}
	syms, err := r.src.Outline(r.q.Path)
	if err != nil {
		return nil
	}
	var best *index.Symbol
	for i, s := range syms {
		end := max(s.EndLine, s.Line)
		if s.Line <= r.q.Line && r.q.Line <= end && (best == nil || end-s.Line < max(best.EndLine, best.Line)-best.Line) {
			best = &syms[i]
		}
	}
	if best == nil {
		return nil
	}
	f, err := r.tb.File(best.Path)
	if err != nil {
		return nil
	}
	label := best.QualifiedName()
	return []index.Hit{{Path: best.Path, Start: unit.DocStart(f, best.Line), End: max(best.EndLine, best.Line), Symbol: label, Kind: best.Kind, Language: best.Language}}
}

// maxUses caps the call sites shown per definition.
const maxUses = 8

// writeUses lists where the first two defined functions are called in
// their own folder tree ("Name(" by grep), each line cited. Only calls in
// code count: a match in a comment, a string, a docstring or a doctest is
// not a call, and tests are left out.
func (r *run) writeUses(ctx context.Context, b *strings.Builder, defs []index.Hit) {
	done := map[string]bool{}
	prose := map[string]tools.Prose{}
	for _, d := range defs {
		name := d.Symbol
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if done[name] || len(done) == 2 || (d.Kind != "func" && d.Kind != "method" && d.Kind != "function") {
			continue
		}
		done[name] = true
		dir := path.Dir(d.Path)
		glob := dir + "/**"
		if dir == "." {
			glob = ""
		}
		pattern := `\b` + regexp.QuoteMeta(name) + `\(`
		t0 := time.Now()
		ms, err := r.src.Grep(ctx, pattern, glob, 50)
		uses := r.callSites(ms, d, name, prose)
		// Calls in the definition's own folder first.
		sort.SliceStable(uses, func(i, j int) bool {
			return path.Dir(uses[i].Path) == dir && path.Dir(uses[j].Path) != dir
		})
		if len(uses) > maxUses {
			uses = uses[:maxUses]
		}
		step := tools.Step{Tool: "grep", Args: map[string]any{"pattern": pattern, "path_glob": glob}, Summary: fmt.Sprintf("%d matches", len(ms)), MS: msSince(t0)}
		if err != nil {
			step.Summary = "error: " + err.Error()
		}
		r.record(step, tools.Describe("grep", tools.Args{"pattern": pattern, "path_glob": glob}))
		if len(uses) == 0 {
			continue
		}
		where := dir
		if glob == "" {
			where = "the workspace"
		}
		fmt.Fprintf(b, "\n### Calls of %s in %s (code only, tests left out)\n\n", name, where)
		for _, m := range uses {
			r.writeCitedLine(b, m.Path, m.Line, "")
		}
	}
}

// writeCitedLine cites one line of a file and writes it as an entry of a
// list of call sites: "- path:line: `code` [n]", with note (when not
// empty) before the marker. ok is false when the line cannot be read.
func (r *run) writeCitedLine(b *strings.Builder, p string, line int, note string) (id int, ok bool) {
	f, err := r.tb.File(p)
	if err != nil {
		return 0, false
	}
	text, ok := f.Lines(line, line)
	if !ok {
		return 0, false
	}
	id = r.reg.Add(p, line, line, text, "")
	if note != "" {
		note = " " + note
	}
	fmt.Fprintf(b, "- %s:%d: %s%s [%d]\n", p, line, codeSpan(strings.TrimSpace(tools.CutLine(strings.TrimSuffix(text, "\n")))), note, id)
	return id, true
}

// callSites keeps the grep matches that are calls in code: not in a test
// file, not the definition itself, and with at least one match of
// "name(" outside comments and strings.
func (r *run) callSites(ms []index.GrepMatch, d index.Hit, name string, prose map[string]tools.Prose) []index.GrepMatch {
	var uses []index.GrepMatch
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\(`)
	for _, m := range ms {
		if tools.IsTestPath(m.Path) || (m.Path == d.Path && m.Line >= d.Start && m.Line <= d.End) {
			continue
		}
		f, err := r.tb.File(m.Path)
		if err != nil {
			continue
		}
		pr, ok := prose[m.Path]
		if !ok {
			pr = tools.ScanProse(m.Path, f.Content())
			prose[m.Path] = pr
		}
		text, ok := f.Lines(m.Line, m.Line)
		if !ok {
			continue
		}
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if !pr.In(m.Line, loc[0]) {
				uses = append(uses, m)
				break
			}
		}
	}
	return uses
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
