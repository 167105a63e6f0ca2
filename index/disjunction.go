package index

import (
	"context"
	"encoding/binary"
	"math"
	"sort"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	"github.com/blevesearch/bleve/v2/search/searcher"
)

// disjunctionQuery is bleve's DisjunctionQuery with Min 0 (the should
// clauses of a BooleanQuery), searched by keyedDisjunction where bleve
// would use its slice searcher: the same clauses, sorted the same way,
// the same query norm, the same matches summed in the same order by
// bleve's own scorer, so every score is bit for bit bleve's. What
// differs is how the next document is found: bleve's slice searcher
// compares every clause's current document ID as bytes on each step,
// which on the kernel's large posting lists was a quarter of a
// question's search (docs/ranking.md, stage 2); here each clause's
// current ID is kept as the number it encodes.
//
// Every other case (more clauses than bleve's heap takeover, scoring
// off, scores broken down for kNN) is handed to bleve's own searcher.
type disjunctionQuery struct {
	clauses []query.Query
	// topN, when not 0, is the size of the search this disjunction is
	// the whole query of: it may skip what cannot enter the top topN
	// (disjunction_prune.go).
	topN int
}

// Searcher builds the clauses' searchers as DisjunctionQuery.Searcher
// does and picks the searcher bleve's NewDisjunctionSearcher would,
// keyedDisjunction for its slice searcher.
func (q *disjunctionQuery) Searcher(ctx context.Context, i bindex.IndexReader, m mapping.IndexMapping, options bsearch.SearcherOptions) (bsearch.Searcher, error) {
	ss := make([]bsearch.Searcher, 0, len(q.clauses))
	prune := q.topN > 0 && prunable(i, m)
	var boosts map[bsearch.Searcher]float64
	if prune {
		boosts = make(map[bsearch.Searcher]float64, len(q.clauses))
	}
	for _, c := range q.clauses {
		sr, err := c.Searcher(ctx, i, m, options)
		if err != nil {
			for _, s := range ss {
				_ = s.Close()
			}
			return nil, err
		}
		if sr != nil {
			ss = append(ss, sr)
			if b, ok := termBoost(c); ok && prune {
				boosts[sr] = b
			}
		}
	}
	if len(ss) < 1 {
		return searcher.NewMatchNoneSearcher(i)
	}
	nctx := context.WithValue(ctx, bsearch.IncludeScoreBreakdownKey, false)
	if !keyedDisjunctionFits(ss, options) {
		return searcher.NewDisjunctionSearcher(nctx, i, ss, 0, options)
	}
	s := newKeyedDisjunction(ss, options)
	if prune {
		s.prune = newPruner(q.topN, s, boosts, s.qnorm)
	}
	return s, nil
}

// keyedDisjunctionFits reports whether bleve's NewDisjunctionSearcher
// would search ss with its slice searcher, scoring.
func keyedDisjunctionFits(ss []bsearch.Searcher, options bsearch.SearcherOptions) bool {
	if options.Score == "none" || options.Explain {
		return false // bleve may merge the postings; explanations are bleve's
	}
	if searcher.DisjunctionMaxClauseCount != 0 && len(ss) > searcher.DisjunctionMaxClauseCount {
		return false // bleve's error
	}
	return len(ss) <= searcher.DisjunctionHeapTakeover
}

// keyedDisjunction is bleve's DisjunctionSliceSearcher with Min 0,
// finding the clauses at the smallest current document ID with a heap
// rather than a pass over every clause: a question is up to 64 clauses
// and a document matches few of them. Each current ID is kept as the
// number it encodes (keys): scorch's IDs are 8-byte big-endian numbers,
// whose order is their bytes' order. The heap orders by ID, then by
// clause, so the clauses of one document leave it in clause order, the
// order bleve's slice searcher sums them in. An ID of another length
// makes it compare bytes over every clause, as bleve does.
type keyedDisjunction struct {
	searchers    searcher.OrderedSearcherList
	currs        []*bsearch.DocumentMatch
	keys         []uint64
	heap         []int // clauses with a current match, but those matching
	scorer       *scorer.DisjunctionQueryScorer
	matching     []*bsearch.DocumentMatch
	matchingIdxs []int
	initialized  bool
	asBytes      bool    // an ID that is not 8 bytes was seen
	qnorm        float64 // the query norm set on every clause
	prune        *pruner // nil: every document is returned
}

func newKeyedDisjunction(ss []bsearch.Searcher, options bsearch.SearcherOptions) *keyedDisjunction {
	searchers := make(searcher.OrderedSearcherList, len(ss))
	copy(searchers, ss)
	sort.Sort(searchers) // as bleve's slice searcher: the order of summation
	s := &keyedDisjunction{
		searchers:    searchers,
		currs:        make([]*bsearch.DocumentMatch, len(searchers)),
		keys:         make([]uint64, len(searchers)),
		heap:         make([]int, 0, len(searchers)),
		scorer:       scorer.NewDisjunctionQueryScorer(options),
		matching:     make([]*bsearch.DocumentMatch, len(searchers)),
		matchingIdxs: make([]int, len(searchers)),
	}
	sum := 0.0
	for _, c := range s.searchers {
		sum += c.Weight()
	}
	s.qnorm = 1.0 / math.Sqrt(sum)
	s.SetQueryNorm(s.qnorm)
	return s
}

// set makes d clause i's current match.
func (s *keyedDisjunction) set(i int, d *bsearch.DocumentMatch) {
	s.currs[i] = d
	if d == nil {
		return
	}
	if len(d.IndexInternalID) != 8 {
		s.asBytes = true
		return
	}
	s.keys[i] = binary.BigEndian.Uint64(d.IndexInternalID)
}

// less orders clauses i and j by current ID, then by clause.
func (s *keyedDisjunction) less(i, j int) bool {
	a, b := s.keys[i], s.keys[j]
	return a < b || (a == b && i < j)
}

func (s *keyedDisjunction) push(i int) {
	h := append(s.heap, i)
	for c := len(h) - 1; c > 0; {
		p := (c - 1) / 2
		if !s.less(h[c], h[p]) {
			break
		}
		h[c], h[p] = h[p], h[c]
		c = p
	}
	s.heap = h
}

func (s *keyedDisjunction) pop() int {
	h := s.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && s.less(h[c+1], h[c]) {
			c++
		}
		if !s.less(h[c], h[p]) {
			break
		}
		h[c], h[p] = h[p], h[c]
		p = c
	}
	s.heap = h
	return top
}

// rebuild puts every clause with a current match in the heap.
func (s *keyedDisjunction) rebuild() {
	s.heap = s.heap[:0]
	for i, d := range s.currs {
		if d != nil {
			s.push(i)
		}
	}
}

func (s *keyedDisjunction) initSearchers(ctx *bsearch.SearchContext) error {
	for i, c := range s.searchers {
		if s.currs[i] != nil {
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		d, err := c.Next(ctx)
		if err != nil {
			return err
		}
		s.set(i, d)
	}
	s.rebuild()
	if s.prune == nil {
		s.updateMatches()
	}
	s.initialized = true
	return nil
}

// updateMatches takes the clauses at the smallest current ID out of the
// heap, in clause order.
func (s *keyedDisjunction) updateMatches() {
	if s.asBytes {
		s.scanMatches()
		return
	}
	matching, idxs := s.matching[:0], s.matchingIdxs[:0]
	if len(s.heap) > 0 {
		i := s.pop()
		matching, idxs = append(matching, s.currs[i]), append(idxs, i)
		for len(s.heap) > 0 && s.keys[s.heap[0]] == s.keys[i] {
			j := s.pop()
			matching, idxs = append(matching, s.currs[j]), append(idxs, j)
		}
	}
	s.matching, s.matchingIdxs = matching, idxs
}

// scanMatches is bleve's slice searcher's updateMatches, comparing IDs
// as bytes.
func (s *keyedDisjunction) scanMatches() {
	matching, idxs := s.matching[:0], s.matchingIdxs[:0]
	for i, curr := range s.currs {
		if curr == nil {
			continue
		}
		if len(matching) > 0 {
			c := curr.IndexInternalID.Compare(matching[0].IndexInternalID)
			if c > 0 {
				continue
			}
			if c < 0 {
				matching, idxs = matching[:0], idxs[:0]
			}
		}
		matching = append(matching, curr)
		idxs = append(idxs, i)
	}
	s.matching, s.matchingIdxs = matching, idxs
}

// Next is bleve's DisjunctionSliceSearcher.Next with Min 0.
func (s *keyedDisjunction) Next(ctx *bsearch.SearchContext) (*bsearch.DocumentMatch, error) {
	if !s.initialized {
		if err := s.initSearchers(ctx); err != nil {
			return nil, err
		}
	}
	if s.prune != nil {
		return s.nextPruned(ctx)
	}
	if len(s.matching) == 0 {
		return nil, nil
	}
	rv, err := s.scoreAndStep(ctx, s.matching, s.matchingIdxs, nil)
	if err != nil {
		return nil, err
	}
	s.updateMatches()
	return rv, nil
}

// scoreAndStep scores the document the clauses idxs (matching, their
// current matches, in clause order) are at, as bleve does, and moves
// those clauses to their next documents; a clause that has one goes back
// on the heap when heaped says so (nil: whenever IDs are numbers).
func (s *keyedDisjunction) scoreAndStep(ctx *bsearch.SearchContext, matching []*bsearch.DocumentMatch, idxs []int, heaped []bool) (*bsearch.DocumentMatch, error) {
	rv := s.scorer.Score(ctx, matching, len(matching), len(s.searchers))
	for _, i := range idxs {
		if s.currs[i] != rv {
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		d, err := s.searchers[i].Next(ctx)
		if err != nil {
			return nil, err
		}
		s.set(i, d)
		if d != nil && (heaped == nil && !s.asBytes || heaped != nil && heaped[i]) {
			s.push(i)
		}
	}
	return rv, nil
}

// Advance is bleve's DisjunctionSliceSearcher.Advance.
func (s *keyedDisjunction) Advance(ctx *bsearch.SearchContext, id bindex.IndexInternalID) (*bsearch.DocumentMatch, error) {
	if s.prune != nil {
		return nil, errPruneAdvance
	}
	if !s.initialized {
		if err := s.initSearchers(ctx); err != nil {
			return nil, err
		}
	}
	for i, c := range s.searchers {
		if s.currs[i] != nil {
			if s.currs[i].IndexInternalID.Compare(id) >= 0 {
				continue
			}
			ctx.DocumentMatchPool.Put(s.currs[i])
		}
		d, err := c.Advance(ctx, id)
		if err != nil {
			return nil, err
		}
		s.set(i, d)
	}
	s.rebuild()
	s.updateMatches()
	return s.Next(ctx)
}

func (s *keyedDisjunction) Weight() float64 {
	var rv float64
	for _, c := range s.searchers {
		rv += c.Weight()
	}
	return rv
}

func (s *keyedDisjunction) SetQueryNorm(qnorm float64) {
	for _, c := range s.searchers {
		c.SetQueryNorm(qnorm)
	}
}

func (s *keyedDisjunction) Count() uint64 {
	var sum uint64
	for _, c := range s.searchers {
		sum += c.Count()
	}
	return sum
}

func (s *keyedDisjunction) Close() (rv error) {
	for _, c := range s.searchers {
		if err := c.Close(); err != nil && rv == nil {
			rv = err
		}
	}
	return rv
}

func (s *keyedDisjunction) Min() int { return 0 }

func (s *keyedDisjunction) Size() int {
	n := s.scorer.Size() + 8*(len(s.keys)+cap(s.heap)+len(s.matchingIdxs))
	for _, c := range s.searchers {
		n += c.Size()
	}
	return n
}

func (s *keyedDisjunction) DocumentMatchPoolSize() int {
	rv := len(s.currs)
	for _, c := range s.searchers {
		rv += c.DocumentMatchPoolSize()
	}
	return rv
}

// Optimize is bleve's: a disjunction of one clause is that clause.
func (s *keyedDisjunction) Optimize(kind string, octx bindex.OptimizableContext) (bindex.OptimizableContext, error) {
	if len(s.searchers) == 1 {
		if o, ok := s.searchers[0].(bindex.Optimizable); ok {
			return o.Optimize(kind, octx)
		}
	}
	return nil, nil
}
