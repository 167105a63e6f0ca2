package retrieval

import (
	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/agent/unit"
	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
	"github.com/askls/askls/rank"
)

// entry is one cited unit of a retrieval answer.
type entry struct {
	u     unit.Unit
	sp    unit.Span
	ft    *unit.FileTerms
	prior float64      // from the unit's rank in the search (0 when no hit stands for it)
	first bool         // a definition or the unit at the cursor: shown first, in order
	top   bool         // a unit of the search's first hit: the first entry after them
	held  map[int]bool // the question terms the unit holds
	share float64      // unitShare
	score float64
	// weights are the question terms' weights (TermWeights), for the
	// excerpt an entry shows.
	weights []float64
	taken   bool      // picked (pick)
	cited   unit.Span // the lines it cites, once taken (citedAt)
}

// Weighing of the units (see chooseEntries).
const (
	// rankWeight is the weight of the search rank against Share
	// (0..1), chosen on the broad benchmark (docs/answers.md); the other
	// constants of this block were chosen on the three sets of
	// testdata/eval.
	rankWeight = 0.75
	// notCodeFactor scales the score of documentation, generated files and
	// declaration files (tools.NotCodeIn: the index's class) unless the question asks about
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
// found by its file), halved for NotCodeIn files. first (definitions, the
// cursor) keep their order ahead of the rest and do not count against
// their file; the best unit of the search's first hit comes next (pick).
// weak says whether the evidence does not
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
			if rank == 0 {
				c.at[u.Key()].top = true
			}
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
			if !aboutTests && corpus.TestUnit(u.Lang, u.Symbol, u.Kind) {
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
		if !aboutDocs && tools.NotCodeIn(c.r.src, e.u.Path) {
			e.score *= notCodeFactor
		}
	}
}

// pick returns the first entries (definitions, the cursor) in order,
// then the best unit of the search's first hit (top), then up to
// retrievalHits entries in all by score, each scaled by sameFile per
// entry of its file already taken, at most maxPerFile a file, none
// citing lines another entry cites (see fits). nFirst is the number of
// first entries.
func (c *chooser) pick() (out []entry, nFirst int) {
	for _, e := range c.cands {
		if e.first && c.fits(e, out) {
			c.take(e, &out) // not counted against its file: a section of its own
		}
	}
	nFirst = len(out)
	perFile := map[string]int{}
	// The search's first hit leads the ranked entries: its best unit.
	// A unit that does not fit gives way to the next best of the hit.
	var leads []*entry
	for _, e := range c.cands {
		if e.top && !e.first && e.score > 0 {
			leads = append(leads, e)
		}
	}
	for len(leads) > 0 {
		at := 0
		for i, e := range leads {
			if e.score > leads[at].score {
				at = i
			}
		}
		lead := leads[at]
		leads = append(leads[:at], leads[at+1:]...)
		if c.fits(lead, out) {
			c.take(lead, &out)
			perFile[lead.u.Path]++
			break
		}
	}
	for len(out) < retrievalHits {
		best := c.next(out, perFile)
		if best == nil {
			break
		}
		c.take(best, &out)
		perFile[best.u.Path]++
	}
	return out, nFirst
}

// next is the best candidate, by its score scaled by sameFile per entry
// of its file already taken, that fits at the next place of out.
func (c *chooser) next(out []entry, perFile map[string]int) *entry {
	misfit := map[*entry]bool{}
	for {
		var best *entry
		bestScore := 0.0
		for _, e := range c.cands {
			if e.first || e.score <= 0 || misfit[e] || perFile[e.u.Path] >= maxPerFile {
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
		if best == nil || c.fits(best, out) {
			return best
		}
		misfit[best] = true
	}
}

// take appends e to out with the lines it cites at its place, and marks
// it taken.
func (c *chooser) take(e *entry, out *[]entry) {
	e.cited = citedAt(e, len(*out))
	e.score = -1
	e.taken = true
	*out = append(*out, *e)
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

// weakShare is the share of the question's weighted terms below which
// the best of the first three spans is no evidence (see isWeak),
// calibrated on the absent questions of the three sets in testdata/eval
// against their answerable ones (figures in docs/answers.md).
const weakShare = 0.15

// weakEntries is how many of the ranked entries isWeak reads.
const weakEntries = 5

// isWeak decides whether the evidence does not clearly answer the
// question. It is weak when there is no ranked unit; when the question
// writes a name (QUIC, Brotli, GenerateFromPassword: see Term.Name) that
// neither the first five units (their text or path) nor the rest of
// their files hold; or when the best of the first five spans holds less
// than weakShare of the question's weighted terms. Five, not three: the
// entries of a file already shown weigh less (sameFile), so a file's
// second unit may come fourth. A question that names a
// definition that exists (defs > 0) is never weak: its definition is
// cited first.
func isWeak(ranked []entry, defs int, terms []unit.Term) bool {
	if defs > 0 {
		return false
	}
	if len(ranked) == 0 {
		return true
	}
	top := ranked[:min(len(ranked), weakEntries)]
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
