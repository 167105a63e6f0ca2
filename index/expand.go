package index

import (
	"context"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
)

// fetchFeedback is the feedback fetch (docs/ranking.md, stage 6): a
// reranked question's first pass of the stages (rank.Expand) gives its
// feedback terms, and bleve is asked again for the question's terms and
// those (expandedQuery). Up to Ranking.FeedbackFetch of the chunks it
// returns that the question's own query did not join cands, each scored
// by that query's bleve score times the question's best over the
// second query's best (scores of two queries are not comparable; their
// bests are the nearest thing to the same level), with its priors, and
// the rerank's pool grows by as many: from here on they go through the
// stages as the others do. It returns cands and the sizes unchanged
// when the fetch is off, the question is not reranked, or (with
// FeedbackFetchBelow) the first pass's best cover enough of it.
func (s *Snapshot) fetchFeedback(ctx context.Context, p *plan, f Filter, cands []rank.Cand, sz rank.Sizes) ([]rank.Cand, rank.Sizes, error) {
	rk := &s.ix.rank
	if rk.FeedbackFetch <= 0 || !sz.Rerank || p.Strict || len(cands) == 0 {
		return cands, sz, nil
	}
	fb := rank.Expand(ctx, p.Plan, rk, cands, sz, s.readTexts, s.contentIDF)
	if len(fb.Terms) == 0 || (rk.FeedbackFetchBelow > 0 && fb.TopCoverage >= rk.FeedbackFetchBelow) {
		return cands, sz, nil
	}
	more, err := s.candidates(ctx, p, f, s.expandedQuery(p, f, fb), rk.FeedbackFetch*2)
	if err != nil {
		return nil, sz, err
	}
	type key struct {
		path string
		off  int
	}
	seen := make(map[key]bool, len(cands))
	first, last := 0.0, cands[0].Base
	for _, c := range cands {
		seen[key{c.Path, c.Meta.Off}] = true
		first, last = max(first, c.Base), min(last, c.Base)
	}
	second := 0.0
	for _, c := range more {
		second = max(second, c.Base)
	}
	if first == 0 || second == 0 {
		return cands, sz, nil
	}
	scale := first / second
	added := 0
	for _, c := range more {
		if added == rk.FeedbackFetch {
			break
		}
		if seen[key{c.Path, c.Meta.Off}] {
			continue
		}
		f := scale
		if rk.FeedbackFetchClamp && c.Base*f > last {
			f = last / c.Base // the question's query scored it below its last
		}
		c.Base *= f
		c.Score *= f
		c.Why.Add(rank.StageFeedback, "fetched", f)
		cands = append(cands, c)
		added++
	}
	sz.Pool += added
	return cands, sz, nil
}

// expandedQuery is the plan's query (boolQuery) with each feedback term
// asked for in content and names, weighing FeedbackFetchWeight × its
// weight's share of the best term's (a question's plain word weighs 1
// in content).
func (s *Snapshot) expandedQuery(p *plan, f Filter, fb rank.Feedback) *query.BooleanQuery {
	rk := &s.ix.rank
	rq := s.boolQuery(p, f)
	var clauses []query.Query
	if d, ok := rq.Should.(*disjunctionQuery); ok {
		clauses = append(clauses, d.clauses...)
	}
	best := 0.0
	for _, w := range fb.Weights {
		best = max(best, w)
	}
	for i, t := range fb.Terms {
		if best <= 0 {
			break
		}
		w := rk.FeedbackFetchWeight * fb.Weights[i] / best
		clauses = append(clauses, termQuery(t, store.FieldContent, w), termQuery(t, store.FieldSymbol, rk.SymbolBoostProse*w))
	}
	rq.Should = &disjunctionQuery{clauses: clauses}
	return rq
}
