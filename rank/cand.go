package rank

import (
	"context"
	"math"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
)

// Cand is one candidate chunk as the stages see it: index makes one of
// each chunk bleve (or an open buffer) gives, and the stages change its
// Score, in order.
type Cand struct {
	Path     string     // the chunk's file, as index names it
	Language string     // the file's language
	Meta     chunk.Meta // the chunk: its lines, symbol, kind, and the units merged into it
	Score    float64
	Base     float64    // bleve's score, before any stage (Score's starting point)
	Text     []byte     // read for the stages that need it (see Read), else nil
	Test     bool       // from a test file
	Decl     bool       // a declaration (Params.DeclFactor)
	Why      *Breakdown // what each stage did to Score; nil unless the search explains
}

// Read fills the Text of the candidates that have none (index reads them,
// one read per file).
type Read func(pool []Cand)

// IDF gives each term its inverse document frequency in the index (1
// each when unknown); the feedback stage weighs its terms by it.
type IDF func(ctx context.Context, terms []string) []float64

// ApplyPriors is the priors stage of a chunk of kind in the file path of
// class (corpus.Classify, with corpus.Test for a test unit), scored score
// by bleve: the class's prior unless the question asks for the class,
// DeclFactor on a declaration in a question, DocBoost on a package's doc
// comment or prose in a question about documentation. decl says whether
// the chunk is a declaration (its file's score gets back what DeclFactor
// took, see ByFile's key).
func (p *Plan) ApplyPriors(prm *Params, score float64, class corpus.Class, path, kind string, why *Breakdown) (_ float64, decl bool) {
	prose := class.Has(corpus.Prose)
	score = prm.Priors.Apply(score, class, p.asks(class, path), why)
	declFile := !p.Lookup && class.Has(corpus.Decl)
	decl = !p.Lookup && declKinds[kind] && !declFile && !(p.AboutDocs && kind == "package")
	if decl || declFile {
		score *= prm.DeclFactor
		why.Add(StagePriors, "declaration", prm.DeclFactor)
	}
	if p.AboutDocs && (kind == "package" || prose) {
		score *= prm.DocBoost
		why.Add(StagePriors, "doc", prm.DocBoost)
	}
	return score, decl
}

// byScore sorts the candidates best first, stably.
func byScore(cands []Cand) {
	sortStable(cands, func(a, b *Cand) bool { return a.Score > b.Score })
}

// Rerank scores the best n candidates again by how much of the query each
// holds, then by how much of the best ones' vocabulary it shares
// (feedback.go). All that a query of this limit fetches: one left out
// would keep bleve's score, which the factors of the others only lower.
// It sorts cands by score first and reads the texts of the best n.
func Rerank(ctx context.Context, p *Plan, prm *Params, cands []Cand, n int, read Read, idf IDF) {
	byScore(cands)
	pool := cands[:min(len(cands), n)]
	read(pool)
	baseScores := make([]float64, len(pool)) // before coverage: what feedback mixes with
	for i := range pool {
		baseScores[i] = pool[i].Score
	}
	cv := newCoverer(pool)
	defer cv.release()
	pc := cv.measure(pool, p, prm)
	weights := make([]float64, len(p.Terms))
	for i := range weights {
		weights[i] = 1
	}
	if prm.PoolIDF {
		weights = poolIDF(pc.masks, len(p.Terms))
	}
	if prm.TextWeight > 0 {
		textScores(pool, bm25(pc.lens, pc.counts, pc.names, weights, prm.BM25K1, prm.BM25B, prm.BM25Symbol), prm.TextWeight)
		for i := range pool {
			baseScores[i] = pool[i].Score
		}
	}
	for i := range pool {
		c := &pool[i]
		cov := maskCoverage(pc.masks[i], weights)
		c.Score *= math.Pow(cov, prm.CoveragePower)
		c.Why.Add(StageCoverage, "terms", math.Pow(cov, prm.CoveragePower))
		if prm.ProximityBoost > 0 && len(p.Pairs) > 0 {
			f := 1 + prm.ProximityBoost*pc.pairs[i]
			c.Score *= f
			c.Why.Add(StageCoverage, "proximity", f)
		}
		if len(p.Phrases) > 0 && prm.QuoteBoost != 1 {
			if f := quoteFactor(c.Text, p.Phrases, prm.QuoteBoost); f != 1 {
				c.Score *= f
				c.Why.Add(StageCoverage, "quoted", f)
			}
		}
	}
	if prm.FeedbackWeight > 0 {
		fbTerms, fbWeights := feedbackTerms(ctx, prm, len(pool), func(i int) ([]byte, float64) { return pool[i].Text, pool[i].Score }, p.Terms, idf)
		fm := newTermMatcher(fbTerms, nil, nil)
		for i := range pool {
			c := &pool[i]
			fb := cv.coverage(i, fm, fbWeights)
			before := c.Score
			c.Score = (1-prm.FeedbackWeight)*c.Score + prm.FeedbackWeight*baseScores[i]*fb
			if before > 0 {
				c.Why.Add(StageFeedback, "mix", c.Score/before)
			}
		}
	}
}
