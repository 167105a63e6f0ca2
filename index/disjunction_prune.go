package index

import (
	"errors"
	"math"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
)

// pruner lets keyedDisjunction skip the documents that cannot enter the
// top n of the search it is the whole query of (MaxScore). bleve's
// tf-idf scores a clause sqrt(tf) × norm × idf × boost × idf × the query
// norm, and norm is 1/sqrt(the field's length), which a term's count
// never exceeds: a clause scores at most W × norm / boost, W its weight
// (boost × idf)². A document matching only clauses whose bounds, summed
// and times the coordination factor (matched / all clauses), stay below
// the n-th best score returned so far can never be among the n best
// (that score only grows): those clauses are not iterated, only moved to
// the documents the other clauses give. Every document returned is
// scored as bleve scores it; the top n, in order and scores, are
// bleve's. Only the total count of matches (unused here) is smaller.
type pruner struct {
	n         int
	top       []float64 // min-heap of the n best scores returned
	order     []int     // clauses by bound, ascending
	bound     []float64 // bound[j]: the most a document matching only order[:j+1] scores
	ne        int       // order[:ne] are not iterated
	essential []bool
	nonEss    []int
	ub        []float64 // each clause's bound
	neSum     float64   // the bounds of the clauses not iterated, summed
}

// errPruneID: a pruned disjunction met a document ID scorch does not
// write (never: pruning is only on scorch's snapshots).
var errPruneID = errors.New("index: pruned disjunction: document ID not 8 bytes")

// errPruneAdvance: a pruned disjunction is a whole query, never a part
// another searcher advances.
var errPruneAdvance = errors.New("index: pruned disjunction advanced")

// prunable reports whether a disjunction over reader i with mapping m
// may prune: scorch's 8-byte IDs, tf-idf scores.
func prunable(i bindex.IndexReader, m mapping.IndexMapping) bool {
	if _, ok := i.(*scorch.IndexSnapshot); !ok {
		return false
	}
	im, ok := m.(*mapping.IndexMappingImpl)
	return ok && im.ScoringModel != bindex.BM25Scoring
}

// newPruner bounds each clause of s: a term clause by its weight, the
// query norm and its boost (boosts, by searcher); any other clause
// unbounded.
func newPruner(n int, s *keyedDisjunction, boosts map[bsearch.Searcher]float64, qnorm float64) *pruner {
	k := len(s.searchers)
	p := &pruner{n: n, essential: make([]bool, k), order: make([]int, k), bound: make([]float64, k)}
	ub := make([]float64, k)
	for i, c := range s.searchers {
		p.essential[i], p.order[i] = true, i
		ub[i] = math.Inf(1)
		if _, ok := c.(*searcher.TermSearcher); ok {
			if b, ok := boosts[c]; ok && b > 0 {
				// A margin for the norm's float32 and the products' rounding.
				ub[i] = c.Weight() * qnorm / b * (1 + 1e-6)
			}
		}
	}
	p.setBounds(ub)
	return p
}

// setBounds makes ub the clauses' bounds and orders the clauses by them.
func (p *pruner) setBounds(ub []float64) {
	p.ub = ub
	sortByBound(p.order, ub)
	sum := 0.0
	for j, i := range p.order {
		sum += ub[i]
		p.bound[j] = sum * float64(j+1) / float64(len(ub)) * (1 + 1e-9)
	}
}

// sortByBound sorts clause indices by ub, ascending (insertion: at most
// 64 clauses).
func sortByBound(order []int, ub []float64) {
	for a := 1; a < len(order); a++ {
		for b := a; b > 0 && ub[order[b]] < ub[order[b-1]]; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
}

// record notes a returned score and reports whether clauses stopped
// being iterated.
func (p *pruner) record(score float64) bool {
	h := p.top
	switch {
	case len(h) < p.n:
		h = append(h, score)
		for c := len(h) - 1; c > 0 && h[c] < h[(c-1)/2]; c = (c - 1) / 2 {
			h[c], h[(c-1)/2] = h[(c-1)/2], h[c]
		}
	case score > h[0]:
		h[0] = score
		for q := 0; ; {
			c := 2*q + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && h[c+1] < h[c] {
				c++
			}
			if h[q] <= h[c] {
				break
			}
			h[q], h[c] = h[c], h[q]
			q = c
		}
	default:
		return false
	}
	p.top = h
	if len(h) < p.n {
		return false
	}
	moved := false
	for p.ne < len(p.order) && p.bound[p.ne] < h[0] {
		i := p.order[p.ne]
		p.essential[i] = false
		p.nonEss = append(p.nonEss, i)
		p.neSum += p.ub[i]
		p.ne++
		moved = true
	}
	return moved
}

// nextPruned returns the next document an iterated clause matches, with
// the other clauses moved to it and every clause that matches it scored
// in clause order, as bleve does.
func (s *keyedDisjunction) nextPruned(ctx *bsearch.SearchContext) (*bsearch.DocumentMatch, error) {
	idxs, ok, err := s.nextCandidate(ctx)
	if !ok || err != nil {
		return nil, err
	}
	return s.scorePruned(ctx, idxs)
}

// nextCandidate takes the clauses at the next document that may reach
// the top n out of the heap and moves the clauses not iterated to it
// (probe): a document that cannot reach the top n is passed over, its
// iterated clauses moved on. It returns every clause that matches the
// document; ok is false when no document is left.
func (s *keyedDisjunction) nextCandidate(ctx *bsearch.SearchContext) (idxs []int, ok bool, err error) {
	for len(s.heap) > 0 {
		if s.asBytes {
			return nil, false, errPruneID
		}
		idxs = s.matchingIdxs[:0]
		first := s.pop()
		idxs = append(idxs, first)
		partial := s.currs[first].Score
		for len(s.heap) > 0 && s.keys[s.heap[0]] == s.keys[first] {
			i := s.pop()
			idxs = append(idxs, i)
			partial += s.currs[i].Score
		}
		iterated := len(idxs)
		idxs, ok, err = s.probe(ctx, idxs, partial)
		s.matchingIdxs = idxs
		if ok || err != nil {
			return idxs, ok, err
		}
		for _, i := range idxs[:iterated] {
			ctx.DocumentMatchPool.Put(s.currs[i])
			d, err := s.searchers[i].Next(ctx)
			if err != nil {
				return nil, false, err
			}
			s.set(i, d)
			if d != nil {
				s.push(i)
			}
		}
	}
	return nil, false, nil // what is left matches only clauses that cannot reach the top n
}

// probe moves the clauses not iterated to the document the iterated
// clauses idxs are at (their scores summed: partial), the clause of
// highest bound first, and adds those that match it to idxs. ok is false
// as soon as the document cannot reach the top n: the scores of the
// clauses that match it plus the bounds of the clauses not moved yet,
// times the coordination factor of that many matches, stay below the
// n-th best score returned (which only grows). The sums here are not
// bleve's order of summation: the margin covers their rounding.
func (s *keyedDisjunction) probe(ctx *bsearch.SearchContext, idxs []int, partial float64) (_ []int, ok bool, err error) {
	p := s.prune
	k := float64(len(s.searchers))
	below := func(sum float64, matches int) bool {
		return len(p.top) == p.n && sum*float64(matches)/k*(1+1e-9) < p.top[0]
	}
	doc, id := s.keys[idxs[0]], s.currs[idxs[0]].IndexInternalID
	rest, restN := p.neSum, len(p.nonEss)
	for a := len(p.nonEss) - 1; a >= 0; a-- { // nonEss is by bound, ascending
		if below(partial+rest, len(idxs)+restN) {
			return idxs, false, nil
		}
		j := p.nonEss[a]
		rest, restN = rest-p.ub[j], restN-1
		if s.currs[j] == nil {
			continue
		}
		if s.keys[j] < doc {
			ctx.DocumentMatchPool.Put(s.currs[j])
			d, err := s.searchers[j].Advance(ctx, id)
			if err != nil {
				return nil, false, err
			}
			s.set(j, d)
		}
		if s.currs[j] != nil && s.keys[j] == doc {
			idxs = append(idxs, j)
			partial += s.currs[j].Score
		}
	}
	if s.asBytes {
		return nil, false, errPruneID
	}
	return idxs, !below(partial, len(idxs)), nil
}

// scorePruned scores the document the clauses idxs (every clause that
// matches it) are at and moves the iterated ones on.
func (s *keyedDisjunction) scorePruned(ctx *bsearch.SearchContext, idxs []int) (*bsearch.DocumentMatch, error) {
	p := s.prune
	for a := 1; a < len(idxs); a++ { // clause order, the order of summation
		for b := a; b > 0 && idxs[b] < idxs[b-1]; b-- {
			idxs[b], idxs[b-1] = idxs[b-1], idxs[b]
		}
	}
	matching := s.matching[:0]
	for _, i := range idxs {
		matching = append(matching, s.currs[i])
	}
	rv, err := s.scoreAndStep(ctx, matching, idxs, p.essential)
	if err != nil {
		return nil, err
	}
	s.matching, s.matchingIdxs = matching, idxs
	if p.record(rv.Score) {
		s.heap = s.heap[:0]
		for i, d := range s.currs {
			if d != nil && p.essential[i] {
				s.push(i)
			}
		}
	}
	return rv, nil
}

// termBoost is the boost a term clause's searcher scores with.
func termBoost(c query.Query) (float64, bool) {
	tq, ok := c.(*query.TermQuery)
	if !ok {
		return 0, false
	}
	return tq.BoostVal.Value(), true
}
