package index

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	bindex "github.com/blevesearch/bleve_index_api"

	bsearch "github.com/blevesearch/bleve/v2/search"
)

// postingsFake is a clause that matches fixed documents with fixed
// scores, in document order.
type postingsFake struct {
	docs   []uint64
	scores []float64
	at     int
}

func (f *postingsFake) match(ctx *bsearch.SearchContext) *bsearch.DocumentMatch {
	if f.at >= len(f.docs) {
		return nil
	}
	d := ctx.DocumentMatchPool.Get()
	d.IndexInternalID = binary.BigEndian.AppendUint64(d.IndexInternalID[:0], f.docs[f.at])
	d.Score = f.scores[f.at]
	f.at++
	return d
}

func (f *postingsFake) Next(ctx *bsearch.SearchContext) (*bsearch.DocumentMatch, error) {
	return f.match(ctx), nil
}

func (f *postingsFake) Advance(ctx *bsearch.SearchContext, id bindex.IndexInternalID) (*bsearch.DocumentMatch, error) {
	for f.at < len(f.docs) && f.docs[f.at] < binary.BigEndian.Uint64(id) {
		f.at++
	}
	return f.match(ctx), nil
}

func (f *postingsFake) Close() error               { return nil }
func (f *postingsFake) Weight() float64            { return 1 }
func (f *postingsFake) SetQueryNorm(float64)       {}
func (f *postingsFake) Count() uint64              { return uint64(len(f.docs)) }
func (f *postingsFake) Min() int                   { return 0 }
func (f *postingsFake) Size() int                  { return 0 }
func (f *postingsFake) DocumentMatchPoolSize() int { return 1 }
func (f *postingsFake) scoreOf(doc uint64) float64 {
	if i := slices.Index(f.docs, doc); i >= 0 {
		return f.scores[i]
	}
	return 0
}

// TestPrunedDisjunctionPassesOverDocumentsOfFewMatches: a rare clause
// (bound 10.5) and a common one (bound 1). Documents 1–3 match both and
// score (10 + 1) × 2/2 = 11, the top 3; the common clause is then not
// walked. Documents 4–20 match the rare one alone with 10.5: its score
// plus the common clause's bound could reach 11, so the common clause is
// looked at (it is past them: it misses), and the coordination factor
// halves the score to 5.25: each is passed over, not returned, where
// the bounds summed alone ((10.5 + 1) × 2/2) would have scored all 17.
func TestPrunedDisjunctionPassesOverDocumentsOfFewMatches(t *testing.T) {
	rare, common := &postingsFake{}, &postingsFake{}
	for d := uint64(1); d <= 20; d++ {
		rare.docs = append(rare.docs, d)
		rare.scores = append(rare.scores, map[bool]float64{true: 10, false: 10.5}[d <= 3])
	}
	for d := uint64(1); d <= 100; d++ {
		if d <= 3 || d > 20 {
			common.docs, common.scores = append(common.docs, d), append(common.scores, 1)
		}
	}
	s := newKeyedDisjunction([]bsearch.Searcher{rare, common}, bsearch.SearcherOptions{})
	s.prune = newPruner(3, s, nil, s.qnorm)
	ub := make([]float64, len(s.searchers))
	for i, c := range s.searchers {
		ub[i] = map[bool]float64{true: 10.5, false: 1}[c == bsearch.Searcher(rare)]
	}
	s.prune.setBounds(ub)

	ctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(8, 0)}
	var got []uint64
	for {
		d, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			break
		}
		doc := binary.BigEndian.Uint64(d.IndexInternalID)
		want := (rare.scoreOf(doc) + common.scoreOf(doc)) * 2 / 2
		if math.Abs(d.Score-want) > 1e-12 {
			t.Fatalf("document %d scores %v, want %v", doc, d.Score, want)
		}
		got = append(got, doc)
		ctx.DocumentMatchPool.Put(d)
	}
	if !slices.Equal(got, []uint64{1, 2, 3}) {
		t.Fatalf("returned %v, want the top 3 alone, [1 2 3]", got)
	}
}
