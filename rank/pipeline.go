package rank

import "context"

// The stages after retrieval, in order (docs/ranking.md): exact
// identifiers (Exact), file and folder names (NameBoost), coverage,
// proximity, quoted phrases and feedback (Rerank), the direction of an
// operation (Direction), files (Files). The
// stages before them, the query (ParseQuery) and the priors
// (Plan.ApplyPriors), run as index builds the candidates; those after,
// narrowing a hit to its unit (Narrow) and delegation (Callees), as it
// writes the page.

// Sizes says how many candidates a search fetches and reranks.
type Sizes struct {
	Fetch  int  // candidates asked of each root
	Pool   int  // candidates reranked (Exact reads at least 100)
	Rerank bool // the question is reranked by coverage
}

// Sizes returns the sizes of a search for limit hits: four times the
// limit (40 at least), the rerank pool at least when the question is
// reranked, five times as many fetched for a query of phrases only (many
// will not hold the phrase).
func (p *Plan) Sizes(prm *Params, limit int) Sizes {
	want := max(limit*4, 40)
	rerank := prm.CoveragePower > 0 && len(p.Terms) >= prm.RerankMinTerms
	if rerank {
		want = max(want, prm.RerankPool)
	}
	if len(p.Idents) > 0 && !p.Lookup {
		want = max(want, exactPool)
	}
	sz := Sizes{Fetch: want, Pool: want, Rerank: rerank}
	if p.Strict {
		sz.Fetch *= 5
	}
	return sz
}

// exactPool is how many candidates the exact identifiers stage reads at
// least.
const exactPool = 100

// Run runs the stages after retrieval on cands and returns them in the
// order of the page (Files); read reads the texts a stage needs, idf
// weighs the feedback terms.
func Run(ctx context.Context, p *Plan, prm *Params, cands []Cand, sz Sizes, read Read, idf IDF) []Cand {
	if len(p.Idents) > 0 && (prm.ExactMissFactor != 1 || prm.DefinitionBoost != 1) {
		Exact(p, prm, cands, max(sz.Pool, exactPool), read)
	}
	if prm.NameBoost > 0 {
		NameBoost(p, cands, prm.NameBoost)
	}
	if sz.Rerank {
		Rerank(ctx, p, prm, cands, sz.Pool, read, idf)
	}
	if prm.DirectionFactor != 1 {
		Direction(p, cands, prm.DirectionFactor)
	}
	return Files(prm, cands)
}

// Files is the files stage: it orders the candidates by ByFile, a
// declaration giving its file back what DeclFactor took from it, as
// DeclFileFactor; a file's first candidate then carries the file's
// score, the one it is ranked by (no stage reads Score after it).
func Files(prm *Params, cands []Cand) []Cand {
	cands, fileScores := ByFile(cands, func(c Cand) (string, float64, float64) {
		if c.Decl && prm.DeclFactor > 0 {
			return c.Path, c.Score / prm.DeclFactor * prm.DeclFileFactor, c.Score
		}
		return c.Path, c.Score, c.Score
	}, FileParams{SecondWeight: prm.FileSecondWeight, Decay: prm.FileDecay})
	firstSeen := map[string]bool{}
	for i := range cands {
		if path := cands[i].Path; !firstSeen[path] {
			firstSeen[path] = true
			cands[i].Score = fileScores[path]
			cands[i].Why.Add(StageFiles, "file", fileScores[path])
		}
	}
	return cands
}
