package rank

import (
	"context"
	"slices"
)

// The feedback fetch (docs/ranking.md, stage 6): the feedback terms
// (feedback.go) reorder the candidates the question fetched, but the
// unit that answers in words other than the question's is often not
// among them. Expand gives index what a second bleve query needs: the
// feedback terms of a first pass of the stages, and how much of the
// question the best candidates of that pass cover (a first pass whose
// best cover little is the weak one).

// Feedback is what a reranked question's feedback stage found.
type Feedback struct {
	Terms   []string  // the feedback terms (stems), best first
	Weights []float64 // each term's relevance-model weight × idf
	// TopCoverage is the largest weighted share of the question's terms
	// (coverage, before its power) that one of the FeedbackDocs best
	// candidates holds.
	TopCoverage float64
}

// Expand runs the stages a reranked question's candidates go through
// before the files stage (Exact, NameBoost, Rerank) on a copy of cands
// and returns what its feedback stage found. It sorts cands by score
// and reads the texts of the best sz.Pool (the copy shares them), so
// that Run on cands and the candidates the fetch adds reads only theirs.
func Expand(ctx context.Context, p *Plan, prm *Params, cands []Cand, sz Sizes, read Read, idf IDF) Feedback {
	byScore(cands)
	read(cands[:min(len(cands), sz.Pool)])
	trial := slices.Clone(cands)
	for i := range trial {
		trial[i].Why = nil // what the first pass did is not the hit's breakdown
	}
	if len(p.Idents) > 0 && (prm.ExactMissFactor != 1 || prm.DefinitionBoost != 1) {
		Exact(p, prm, trial, max(sz.Pool, exactPool), read)
	}
	if prm.NameBoost > 0 {
		NameBoost(p, trial, prm.NameBoost)
	}
	return Rerank(ctx, p, prm, trial, sz.Pool, read, idf)
}

// topCoverage is the largest coverage (maskCoverage of masks[i] with
// weights) among the n best of pool by score.
func topCoverage(pool []Cand, masks []uint64, weights []float64, n int) float64 {
	best := make([]int, len(pool))
	for i := range best {
		best[i] = i
	}
	slices.SortStableFunc(best, func(i, j int) int {
		switch {
		case pool[i].Score > pool[j].Score:
			return -1
		case pool[i].Score < pool[j].Score:
			return 1
		}
		return 0
	})
	top := 0.0
	for _, i := range best[:min(len(best), n)] {
		top = max(top, maskCoverage(masks[i], weights))
	}
	return top
}
