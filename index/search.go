package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/rank"
)

// Search retrieves candidates with bleve and runs rank's stages on them,
// in order (docs/ranking.md): the query (rank.ParseQuery); retrieval, one
// bleve query per root, each candidate with its priors
// (rank.Plan.ApplyPriors); exact identifiers, coverage, feedback and
// files (rank.Run); then the page, each hit narrowed to its unit
// (rank.Narrow) with its excerpt, and the units a wrapper calls
// (rank.Callees). Their parameters are a Ranking (rank.Params).

// Search limits.
const (
	defaultLimit = 10
	maxLimit     = 200
)

// maxGlobTerms is how many matching paths a --path glob is turned into
// as keyword terms; a glob matching more filters the candidates instead.
const maxGlobTerms = 1024

// plan is a parsed query (rank.Plan) and what only index uses of the
// filter.
type plan struct {
	*rank.Plan
	glob    *walk.Glob // Filter.PathGlob compiled, or nil
	explain bool       // record each candidate's breakdown (Filter.Explain)
}

// Search ranks the chunks that match query, best first.
func (s *Snapshot) Search(ctx context.Context, q string, limit int, f Filter) ([]Hit, error) {
	p, err := parseQuery(q, f)
	if err != nil {
		return nil, err
	}
	p.DropNames(s.ix.projectNames)
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	rk := &s.ix.rank
	sz := p.Sizes(rk, limit)
	if rk.AbbrevWeight > 0 {
		p.Abbrevs = s.abbrevsOf(ctx, p.Plan, rk.AbbrevMinLen)
	}
	cands, err := s.candidates(ctx, p, f, sz.Fetch)
	if err != nil {
		return nil, err
	}
	cands = s.withBuffers(p, f, cands)
	cands = rank.Run(ctx, p.Plan, rk, cands, sz, s.readTexts, s.contentIDF)
	return s.page(p, cands, limit), nil
}

// withBuffers replaces the candidates of open buffers the generation does
// not hold with chunks of their current content (overlay.go).
func (s *Snapshot) withBuffers(p *plan, f Filter, cands []rank.Cand) []rank.Cand {
	if len(s.overlay) == 0 || p.Strict {
		return cands
	}
	bufs := s.staleBuffers()
	if len(bufs) == 0 {
		return cands
	}
	top := 0.0
	kept := cands[:0]
	for _, c := range cands {
		top = max(top, c.Score)
		if _, stale := bufs[c.Path]; !stale {
			kept = append(kept, c)
		}
	}
	for _, c := range s.bufferCandidates(p, bufs, top) {
		if (f.NoTests && c.Test) || (p.glob != nil && !p.glob.MatchString(c.Path)) || !langAllowed(f, c.Language) {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// langAllowed reports whether Filter.Languages lets a file of language
// lang through.
func langAllowed(f Filter, lang string) bool {
	if len(f.Languages) == 0 {
		return true
	}
	for _, l := range f.Languages {
		if strings.EqualFold(l, lang) {
			return true
		}
	}
	return false
}

// parseQuery checks q and the filter's glob and splits q into what the
// stages use (rank.ParseQuery).
func parseQuery(q string, f Filter) (*plan, error) {
	q, err := rank.CheckQuery(q)
	if err != nil {
		return nil, err
	}
	p := &plan{explain: f.Explain}
	if f.PathGlob != "" {
		if p.glob, err = walk.NewGlob(f.PathGlob); err != nil {
			return nil, fmt.Errorf("%w: glob %q: %v", ErrBadQuery, f.PathGlob, err)
		}
	}
	if p.Plan, err = rank.ParseQuery(q); err != nil {
		return nil, err
	}
	return p, nil
}

// boolQuery is the bleve query of a plan, the same for every root.
func (s *Snapshot) boolQuery(p *plan, f Filter) *query.BooleanQuery {
	rk := &s.ix.rank
	var should []query.Query
	for _, t := range p.Terms {
		bs, bp := rk.SymbolBoost, rk.PathBoost
		if !p.Code[t] && !p.Short {
			bs, bp = rk.SymbolBoostProse, rk.PathBoostProse
		}
		// The whole identifier over its parts, in a lookup: in a longer
		// question the parts are often the question's own words.
		w := 1.0
		switch {
		case !p.Lookup:
		case p.Exact[t]:
			w = rk.ExactBoost
		case p.Parts[t]:
			w = rk.PartWeight
		}
		if !s.namesOnly(p.Plan, t) {
			should = append(should, termQuery(t, store.FieldContent, w))
		}
		should = append(should, termQuery(t, store.FieldSymbol, bs*w), termQuery(t, store.FieldPath, bp*w))
		if !p.Code[t] && rk.VocabWeight > 0 {
			for _, a := range rank.CodeWords(t) { // what code writes for a plain word (rank/vocab.go)
				should = append(should, termQuery(a, store.FieldContent, rk.VocabWeight*w), termQuery(a, store.FieldSymbol, rk.VocabWeight*bs*w))
			}
		}
		if !p.Code[t] && rk.AbbrevWeight > 0 {
			for _, a := range p.Abbrevs[t] {
				should = append(should, termQuery(a, store.FieldContent, rk.AbbrevWeight*w), termQuery(a, store.FieldSymbol, rk.AbbrevWeight*bs*w))
			}
		}
	}
	// A qualified name (errors.Is, http.Get, sql.DB): the chunk that
	// defines the name in a folder named like the qualifier.
	if rk.QualifiedBoost > 0 {
		for _, q := range p.Qualified {
			should = append(should, query.NewConjunctionQuery([]query.Query{
				termQuery(q[1], store.FieldSymbol, rk.QualifiedBoost), termQuery(q[0], store.FieldPath, rk.QualifiedBoost)}))
		}
	}
	var must []query.Query
	if p.Strict {
		for _, t := range p.PhraseTerms {
			must = append(must, termQuery(t, store.FieldContent, rk.PhraseBoost))
		}
	}
	if len(f.Languages) > 0 {
		var ls []query.Query
		for _, l := range f.Languages {
			ls = append(ls, termQuery(strings.ToLower(l), store.FieldLang, 1))
		}
		must = append(must, query.NewDisjunctionQuery(ls))
	}
	var mustNot []query.Query
	if f.NoTests {
		mustNot = append(mustNot, termQuery("1", store.FieldTest, 1))
	}
	bq := query.NewBooleanQuery(must, nil, mustNot)
	if len(should) > 0 {
		// bleve's DisjunctionQuery, searched faster with the same scores
		// (disjunction.go).
		bq.Should = &disjunctionQuery{clauses: should}
	}
	return bq
}

// candidates runs the plan's query on every root and returns up to want
// candidates of each, scored by bleve and the file-level factors.
func (s *Snapshot) candidates(ctx context.Context, p *plan, f Filter, want int) ([]rank.Cand, error) {
	rq := s.boolQuery(p, f)
	var cands []rank.Cand
	for _, r := range s.ix.roots {
		var top query.Query = rq
		rootWant := want
		if p.glob != nil {
			// Restrict to this root's paths that match the glob: by their
			// keyword terms when they are few, else by filtering a wider
			// fetch (as many more candidates as the glob is selective).
			var kws []query.Query
			prefix := ""
			if r.name != "" {
				prefix = r.name + "/"
			}
			s.st.index()
			all, matched := 0, 0
			for _, path := range s.st.paths {
				if !strings.HasPrefix(path, prefix) {
					continue
				}
				all++
				if p.glob.MatchString(path) {
					matched++
					if len(kws) < maxGlobTerms {
						kws = append(kws, termQuery(path[len(prefix):], store.FieldPathKW, 0))
					}
				}
			}
			if matched == 0 {
				continue
			}
			if matched <= maxGlobTerms {
				top = query.NewConjunctionQuery([]query.Query{rq, query.NewDisjunctionQuery(kws)})
			} else {
				rootWant = want * max(1, all/matched) * 2
			}
		}
		queries := []query.Query{pruned(top, rq, rootWant)}
		if p.AboutDocs && !p.Lookup {
			// The chunks of a long explanation score low in tf-idf: in a
			// large tree the code that names the topic fills the
			// candidates. A question about documentation also asks the
			// prose alone for as many.
			queries = append(queries, query.NewConjunctionQuery([]query.Query{top, proseQuery()}))
		}
		seen := map[string]bool{}
		for _, q := range queries {
			req := bleve.NewSearchRequestOptions(q, rootWant, 0, false)
			res, err := r.bi.SearchInContext(ctx, req)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("index: search: %w", err)
			}
			cands = slices.Grow(cands, len(res.Hits))
			for _, h := range res.Hits {
				if seen[h.ID] {
					continue
				}
				seen[h.ID] = true
				if c, ok := s.hitCand(p, r, h.ID, h.Score); ok {
					cands = append(cands, c)
				}
			}
		}
	}
	return cands, nil
}

// pruned is top with its disjunction told the search's size, when top
// is the plan's query rq alone and its disjunction the whole of it: the
// disjunction may then skip what cannot enter the top want
// (disjunction_prune.go), with the same hits and scores.
func pruned(top query.Query, rq *query.BooleanQuery, want int) query.Query {
	d, ok := rq.Should.(*disjunctionQuery)
	if top != query.Query(rq) || !ok || rq.Must != nil || rq.MustNot != nil || rq.Filter != nil {
		return top
	}
	q := *rq
	q.Should = &disjunctionQuery{clauses: d.clauses, topN: want}
	return &q
}

// proseQuery matches the chunks of prose files (proseLangs). It is a
// filter: its boost is next to nothing, so a chunk scores by the query's
// terms as it does without it.
func proseQuery() query.Query {
	var ls []query.Query
	for l := range proseLangs {
		ls = append(ls, termQuery(l, store.FieldLang, 1e-9))
	}
	return query.NewDisjunctionQuery(ls)
}

// hitCand turns bleve's hit on document id of root r into a candidate,
// with the file-level factors on its score; ok is false for a document
// the state does not hold (another generation) or the glob excludes.
func (s *Snapshot) hitCand(p *plan, r *root, id string, score float64) (c rank.Cand, ok bool) {
	rel, n, ok := store.ParseDocID(id)
	if !ok {
		return rank.Cand{}, false
	}
	api := r.api(rel)
	if p.glob != nil && !p.glob.MatchString(api) {
		return rank.Cand{}, false
	}
	e := s.st.files[api]
	if e == nil || n >= e.ChunkCount() {
		return rank.Cand{}, false // not in this generation
	}
	chunks := e.Chunks()
	if n >= len(chunks) {
		return rank.Cand{}, false // a damaged manifest block
	}
	ch := chunks[n]
	var why *rank.Breakdown // recorded only for askls search --explain
	if p.explain {
		why = &rank.Breakdown{}
	}
	why.Add(rank.StageCandidates, "tfidf", score)
	class := s.classOf(api, e)
	test := e.Test || store.UnitIsTest(e.Lang, ch.Symbol, ch.Kind, ch.Parts)
	if test {
		class |= corpus.Test
	}
	base := score
	score, decl := p.ApplyPriors(&s.ix.rank, score, class, api, ch.Kind, why)
	return rank.Cand{Path: api, Language: e.Lang, Meta: ch, Score: score, Base: base, Test: test, Decl: decl, Why: why}, true
}

func termQuery(term, field string, boost float64) query.Query {
	q := query.NewTermQuery(term)
	q.SetField(field)
	if boost > 0 {
		q.SetBoost(boost)
	}
	return q
}
