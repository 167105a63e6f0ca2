package rank

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/askls/askls/words"
)

// Pseudo-relevance feedback (RM3: Lavrenko and Croft's relevance model,
// mixed with the query): the chunks that rank best after the coverage
// rerank are taken as relevant; the terms that describe them best and
// that the question did not use (for a question on which x86 processors
// support AVX2: cpu, x86features, goarch) become a second, weighted
// query, and each reranked candidate's score is mixed from how well it
// holds each:
//
//	(1-FeedbackWeight) × bleve × coverage(question) + FeedbackWeight × bleve × coverage(feedback terms)
//
// It only reorders the candidates the question fetched (no second bleve
// search: that would double a question's time), and only for questions
// reranked by coverage.

// feedbackTerms returns the feedback query: the FeedbackTerms terms
// not in query that best describe the FeedbackDocs best of the n
// candidates (text and score of each from at), with their weights. A
// term's weight is its relevance model weight, Σ over those chunks of
// score × tf / length, times its idf in the index: without the idf, the
// words every Go chunk holds (return, err, nil, func) would lead. The
// idf is looked up for the 4 × FeedbackTerms terms of highest
// relevance weight only (idf).
func feedbackTerms(ctx context.Context, prm *Params, n int, at func(i int) ([]byte, float64), query []string, idf IDF) ([]string, []float64) {
	best := make([]int, n)
	for i := range best {
		best[i] = i
	}
	slices.SortStableFunc(best, func(i, j int) int {
		_, a := at(i)
		_, b := at(j)
		return cmp.Compare(b, a)
	})
	skip := map[string]bool{}
	for _, t := range query {
		skip[t] = true
	}
	// Each stem of those chunks gets a number, by which rel and one
	// chunk's counts are kept; a word's stem is looked up once.
	ids := make(map[string]int, 1024)     // a word, as Scan gives it, to its stem's number
	stemIDs := make(map[string]int, 1024) // a stem to its number
	var stems []string                    // the stems, by number
	var rel []float64
	var counts, counted []int // one chunk's count of each stem; the numbers it counted
	for _, i := range best[:min(len(best), prm.FeedbackDocs)] {
		text, score := at(i)
		counted = counted[:0]
		length := 0
		words.Scan(text, func(_, _ int, term []byte) {
			length++
			id, ok := ids[string(term)]
			if !ok {
				word := string(term)
				stem := word // most words are their own stem: one string
				if st := words.Stem(term); !bytes.Equal(st, term) {
					stem = string(st)
				}
				if id, ok = stemIDs[stem]; !ok {
					id = len(stems)
					stemIDs[stem] = id
					stems = append(stems, stem)
					rel = append(rel, 0)
					counts = append(counts, 0)
				}
				ids[word] = id
			}
			if counts[id] == 0 {
				counted = append(counted, id)
			}
			counts[id]++
		})
		for _, id := range counted {
			rel[id] += score * float64(counts[id]) / float64(length)
			counts[id] = 0
		}
	}
	type weighted struct {
		term string
		w    float64
	}
	var ts []weighted
	for id, w := range rel {
		t := stems[id]
		if skip[t] || words.IsStop(t) || len(t) < 3 || isDigits(t) {
			continue
		}
		ts = append(ts, weighted{t, w})
	}
	// Weight first, then the term: one order, however sorted.
	byWeight := func(a, b weighted) int {
		if a.w != b.w {
			return cmp.Compare(b.w, a.w)
		}
		return strings.Compare(a.term, b.term)
	}
	slices.SortFunc(ts, byWeight)
	ts = ts[:min(len(ts), 4*prm.FeedbackTerms)]
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.term
	}
	for i, w := range idf(ctx, names) {
		ts[i].w *= w
	}
	slices.SortFunc(ts, byWeight)
	ts = ts[:min(len(ts), prm.FeedbackTerms)]
	terms, weights := make([]string, len(ts)), make([]float64, len(ts))
	for i, t := range ts {
		terms[i], weights[i] = t.term, t.w
	}
	return terms, weights
}

// isDigits: t is a number (0x1f, 1024 are not worth a feedback term).
func isDigits(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}
