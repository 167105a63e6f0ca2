package index

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/rank"
)

// Search runs in four stages, each in its own file:
//
//	query.go    the query's terms: stop words out, code words marked
//	search.go   retrieval: one bleve query per root, the candidates
//	rerank.go   coverage rerank, feedback (feedback.go), files ranked
//	spans.go    each hit narrowed to the unit that matches, its excerpt
//
// The parameters of every stage are a Ranking (ranking.go).

// maxGlobTerms is how many matching paths a --path glob is turned into
// as keyword terms; a glob matching more filters the candidates instead.
const maxGlobTerms = 1024

// plan is a parsed query: what every stage needs to know of it.
type plan struct {
	terms       []string        // search terms, stop words out
	code        map[string]bool // terms from words written as code
	exact       map[string]bool // whole identifiers written as code (maxTokenSize)
	parts       map[string]bool // parts of those identifiers (max, token, size)
	idents      []string        // identifiers written as code, lower-cased as written (maxtokensize)
	words       []string        // the query's terms that are plain words (for NameBoost)
	phrases     []string        // quoted phrases, spacing normalised
	phraseTerms []string        // the terms of the phrases
	pairs       [][2]string     // plain words side by side in the query (proximity.go)
	strict      bool            // the query is only phrases: they must match
	short       bool            // 3 terms or fewer
	lookup      bool            // 3 words or fewer: a name looked up, not a question
	aboutTests  bool            // the query asks about tests
	aboutDocs   bool            // the query asks about documentation
	qualified   [][2]string     // package-qualified names: qualifier, name (analysed)
	glob        *walk.Glob      // Filter.PathGlob compiled, or nil
	asked       corpus.Class    // the classes of file the query asks for (corpus.AsksFor)
	explain     bool            // record each candidate's breakdown (Filter.Explain)
}

// cand is one candidate chunk.
type cand struct {
	hit   Hit
	score float64
	meta  chunk.Meta
	text  []byte          // read for the rerank, else nil
	test  bool            // from a test file
	decl  bool            // a declaration (Ranking.DeclFactor)
	why   *rank.Breakdown // what each stage did to score; nil unless the search explains
}

// Search ranks the chunks that match query, best first.
func (s *Snapshot) Search(ctx context.Context, q string, limit int, f Filter) ([]Hit, error) {
	p, err := parseQuery(q, f)
	if err != nil {
		return nil, err
	}
	p.dropNames(s.ix.projectNames)
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	rk := &s.ix.rank

	want := max(limit*4, 40)
	rerank := rk.CoveragePower > 0 && len(p.terms) >= rk.RerankMinTerms
	if rerank {
		want = max(want, rk.RerankPool)
	}
	rerankN := want
	if p.strict {
		want *= 5 // many will not hold the phrase
	}
	cands, err := s.candidates(ctx, p, f, want)
	if err != nil {
		return nil, err
	}
	cands = s.withBuffers(p, f, cands)
	if len(p.idents) > 0 && (rk.ExactMissFactor != 1 || rk.DefinitionBoost != 1) {
		s.preferExact(p, cands, max(rerankN, 100))
	}
	if rk.NameBoost > 0 {
		nameBoost(p, cands, rk.NameBoost)
	}
	if rerank {
		s.rerank(ctx, p, cands, rerankN)
	}
	cands, fileScores := rank.ByFile(cands, func(c cand) (string, float64, float64) {
		if c.decl && rk.DeclFactor > 0 {
			// The file gets back what DeclFactor took, as DeclFileFactor.
			return c.hit.Path, c.score / rk.DeclFactor * rk.DeclFileFactor, c.score
		}
		return c.hit.Path, c.score, c.score
	}, rank.FileParams{SecondWeight: rk.FileSecondWeight, Decay: rk.FileDecay})
	// A file's first hit carries the file's score, the one it is ranked by.
	firstSeen := map[string]bool{}
	for i := range cands {
		if path := cands[i].hit.Path; !firstSeen[path] {
			firstSeen[path] = true
			cands[i].hit.Score = fileScores[path]
			cands[i].why.Add(rank.StageFiles, "file", fileScores[path])
		}
	}
	return s.page(p, cands, limit), nil
}

// withBuffers replaces the candidates of open buffers the generation does
// not hold with chunks of their current content (overlay.go).
func (s *Snapshot) withBuffers(p *plan, f Filter, cands []cand) []cand {
	if len(s.overlay) == 0 || p.strict {
		return cands
	}
	bufs := s.staleBuffers()
	if len(bufs) == 0 {
		return cands
	}
	top := 0.0
	kept := cands[:0]
	for _, c := range cands {
		top = max(top, c.score)
		if _, stale := bufs[c.hit.Path]; !stale {
			kept = append(kept, c)
		}
	}
	for _, c := range s.bufferCandidates(p, bufs, top) {
		if (f.NoTests && c.test) || (p.glob != nil && !p.glob.MatchString(c.hit.Path)) || !langAllowed(f, c.hit.Language) {
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

// parseQuery checks q and splits it into what the stages use.
func parseQuery(q string, f Filter) (*plan, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, fmt.Errorf("%w: empty query", ErrBadQuery)
	}
	if len(q) > maxQueryBytes {
		return nil, fmt.Errorf("%w: query is %d bytes long, the limit is %d", ErrBadQuery, len(q), maxQueryBytes)
	}
	p := &plan{}
	if f.PathGlob != "" {
		var err error
		if p.glob, err = walk.NewGlob(f.PathGlob); err != nil {
			return nil, fmt.Errorf("%w: glob %q: %v", ErrBadQuery, f.PathGlob, err)
		}
	}
	// A quoted phrase: all its terms must match, then the chunk's text
	// must hold the phrase (case and spacing aside).
	for _, m := range phraseRE.FindAllStringSubmatch(q, -1) {
		if ph := normalizeSpace(m[1]); ph != "" {
			p.phrases = append(p.phrases, ph)
			for _, t := range store.AnalyzeCode([]byte(m[1]), nil) {
				p.phraseTerms = append(p.phraseTerms, string(t.Term))
			}
		}
	}
	// Only quoted phrases: they must match. Phrases inside a question
	// only raise the chunks that hold them.
	p.strict = len(p.phrases) > 0 && strings.TrimSpace(phraseRE.ReplaceAllString(q, "")) == ""
	var all []string
	p.terms, all, p.code, p.exact, p.parts = queryTerms(q)
	p.short = len(p.terms) <= 3
	p.lookup = len(strings.Fields(q)) <= 3
	if len(p.terms) == 0 {
		p.terms = all
	}
	if len(p.terms) == 0 && len(p.phrases) == 0 {
		return nil, fmt.Errorf("%w: the query has no searchable words", ErrBadQuery)
	}
	if len(p.terms) > maxQueryTerms {
		p.terms = p.terms[:maxQueryTerms]
	}
	p.aboutDocs = AsksForOverview(q)
	p.explain = f.Explain
	p.asked = corpus.AsksFor(p.terms)
	p.pairs = queryPairs(q)
	for _, t := range p.terms {
		// A test word asks for tests when it is written as English: inside
		// an identifier written as code (RUN_ALL_TESTS, TestMain) it is
		// part of a name.
		if !p.code[t] && (strings.HasPrefix(t, "test") || t == "benchmark" || t == "example") {
			p.aboutTests = true
		}
		if docWords[t] {
			p.aboutDocs = true
		}
	}
	p.idents = codeIdents(q)
	for _, t := range p.terms {
		if !p.code[t] {
			p.words = append(p.words, t)
		}
	}
	for _, m := range qualifiedRE.FindAllStringSubmatch(q, 8) {
		// Analysed as the fields are (lower case, stems): the first token
		// of a word is the whole word.
		pkg, name := store.AnalyzeCode([]byte(m[1]), nil), store.AnalyzeCode([]byte(m[2]), nil)
		if len(pkg) > 0 && len(name) > 0 {
			p.qualified = append(p.qualified, [2]string{string(pkg[0].Term), string(name[0].Term)})
		}
	}
	return p, nil
}

// dropNames takes the names of the workspace's projects out of the
// query's terms, unless nothing else would be left: "how does fzf read
// its options" asks where fzf reads them, and the word fzf matches the
// project's packaging (its Homebrew formula, fzf.spec) and every file
// that prints the name, not the code that answers.
func (p *plan) dropNames(names []string) {
	for _, n := range names {
		// A project named for testing (googletest, pytest, testify) is
		// about tests throughout: a question's test words name what the
		// project does, not its own test files.
		if strings.Contains(n, "test") {
			p.aboutTests = false
		}
	}
	if len(names) == 0 || len(p.terms) < 2 {
		return
	}
	drop := func(ts []string) []string {
		out := ts[:0:0]
		for _, t := range ts {
			if !slices.Contains(names, t) {
				out = append(out, t)
			}
		}
		return out
	}
	if kept := drop(p.terms); len(kept) > 0 && len(kept) < len(p.terms) {
		p.terms, p.words = kept, drop(p.words)
	}
}

// boolQuery is the bleve query of a plan, the same for every root.
func (s *Snapshot) boolQuery(p *plan, f Filter) *query.BooleanQuery {
	rk := &s.ix.rank
	var should []query.Query
	for _, t := range p.terms {
		bs, bp := rk.SymbolBoost, rk.PathBoost
		if !p.code[t] && !p.short {
			bs, bp = rk.SymbolBoostProse, rk.PathBoostProse
		}
		// The whole identifier over its parts, in a lookup: in a longer
		// question the parts are often the question's own words.
		w := 1.0
		switch {
		case !p.lookup:
		case p.exact[t]:
			w = rk.ExactBoost
		case p.parts[t]:
			w = rk.PartWeight
		}
		should = append(should, termQuery(t, store.FieldContent, w), termQuery(t, store.FieldSymbol, bs*w), termQuery(t, store.FieldPath, bp*w))
		if !p.code[t] && rk.VocabWeight > 0 {
			for _, a := range vocab[t] { // what code writes for a plain word (vocab.go)
				should = append(should, termQuery(a, store.FieldContent, rk.VocabWeight*w), termQuery(a, store.FieldSymbol, rk.VocabWeight*bs*w))
			}
		}
	}
	// A qualified name (errors.Is, http.Get, sql.DB): the chunk that
	// defines the name in a folder named like the qualifier.
	if rk.QualifiedBoost > 0 {
		for _, q := range p.qualified {
			should = append(should, query.NewConjunctionQuery([]query.Query{
				termQuery(q[1], store.FieldSymbol, rk.QualifiedBoost), termQuery(q[0], store.FieldPath, rk.QualifiedBoost)}))
		}
	}
	var must []query.Query
	if p.strict {
		for _, t := range p.phraseTerms {
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
	return query.NewBooleanQuery(must, should, mustNot)
}

// candidates runs the plan's query on every root and returns up to want
// candidates of each, scored by bleve and the file-level factors.
func (s *Snapshot) candidates(ctx context.Context, p *plan, f Filter, want int) ([]cand, error) {
	rq := s.boolQuery(p, f)
	var cands []cand
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
		queries := []query.Query{top}
		if p.aboutDocs && !p.lookup {
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
func (s *Snapshot) hitCand(p *plan, r *root, id string, score float64) (c cand, ok bool) {
	rk := &s.ix.rank
	rel, n, ok := store.ParseDocID(id)
	if !ok {
		return cand{}, false
	}
	api := r.api(rel)
	if p.glob != nil && !p.glob.MatchString(api) {
		return cand{}, false
	}
	e := s.st.files[api]
	if e == nil || n >= e.ChunkCount() {
		return cand{}, false // not in this generation
	}
	chunks := e.Chunks()
	if n >= len(chunks) {
		return cand{}, false // a damaged manifest block
	}
	ch := chunks[n]
	var why *rank.Breakdown // recorded only for askls search --explain
	if p.explain {
		why = &rank.Breakdown{}
	}
	why.Add(rank.StageCandidates, "tfidf", score)
	class := s.classOf(api, e)
	test := e.Test || unitIsTest(e.Lang, ch.Symbol, ch.Parts)
	if test {
		class |= corpus.Test
	}
	prose := class.Has(corpus.Prose)
	score = rk.Priors.Apply(score, class, p.asks(class, api), why)
	declFile := !p.lookup && class.Has(corpus.Decl)
	decl := !p.lookup && declKinds[ch.Kind] && !declFile && !(p.aboutDocs && ch.Kind == "package")
	if decl || declFile {
		score *= rk.DeclFactor
		why.Add(rank.StagePriors, "declaration", rk.DeclFactor)
	}
	if p.aboutDocs && (ch.Kind == "package" || prose) {
		score *= rk.DocBoost
		why.Add(rank.StagePriors, "doc", rk.DocBoost)
	}
	return cand{hit: Hit{Path: api, Start: ch.Start, End: ch.End, Symbol: ch.Symbol, Kind: ch.Kind,
		Language: e.Lang, Score: score}, score: score, meta: ch, test: test, decl: decl, why: why}, true
}

// rerank scores the best n candidates again by how much of the query each
// holds, then by how much of the best ones' vocabulary it shares
// (feedback.go). All that a query of this limit fetches: one left out
// would keep bleve's score, which the factors of the others only lower.
func (s *Snapshot) rerank(ctx context.Context, p *plan, cands []cand, n int) {
	rk := &s.ix.rank
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	pool := cands[:min(len(cands), n)]
	texts := s.poolTexts(pool)
	bleveScores := make([]float64, len(pool))
	size := 0
	for i := range pool {
		size += 2 * (len(texts[i]) + 1 + len(pool[i].hit.Path))
	}
	cv := coverer{buf: make([]byte, 0, size), spans: make([]int, 1, len(pool)+1)}
	masks := make([]uint64, len(pool)) // the question's terms each holds
	for i := range pool {
		pool[i].text = texts[i]
		bleveScores[i] = pool[i].score
		masks[i] = cv.holds(cv.add(pool[i].text, pool[i].hit.Path), p.terms)
	}
	weights := make([]float64, len(p.terms))
	for i := range weights {
		weights[i] = 1
	}
	if rk.PoolIDF {
		weights = poolIDF(masks, len(p.terms))
	}
	for i := range pool {
		c := &pool[i]
		k := i
		cov := maskCoverage(masks[i], weights)
		c.score *= math.Pow(cov, rk.CoveragePower)
		c.why.Add(rank.StageCoverage, "terms", math.Pow(cov, rk.CoveragePower))
		if rk.ProximityBoost > 0 && len(p.pairs) > 0 {
			f := 1 + rk.ProximityBoost*cv.pairShare(k, p.pairs)
			c.score *= f
			c.why.Add(rank.StageCoverage, "proximity", f)
		}
	}
	if rk.FeedbackWeight > 0 {
		fbTerms, fbWeights := s.feedbackTerms(ctx, len(pool), func(i int) ([]byte, float64) { return pool[i].text, pool[i].score }, p.terms)
		for i := range pool {
			c := &pool[i]
			fb := cv.coverage(i, fbTerms, fbWeights)
			before := c.score
			c.score = (1-rk.FeedbackWeight)*c.score + rk.FeedbackWeight*bleveScores[i]*fb
			if before > 0 {
				c.why.Add(rank.StageFeedback, "mix", c.score/before)
			}
		}
	}
	for i := range pool {
		pool[i].hit.Score = pool[i].score
	}
}

// page returns the first limit hits of the ranked candidates, each
// narrowed to the unit the query is about, with its excerpt; a phrase
// query drops the candidates that do not hold its phrases.
func (s *Snapshot) page(p *plan, cands []cand, limit int) []Hit {
	hits := make([]Hit, 0, limit)
	type at struct {
		path  string
		start int
	}
	shown := map[at]bool{} // each hit on the page, by its first line
	add := func(h Hit) {
		if k := (at{h.Path, h.Start}); !shown[k] && len(hits) < limit {
			shown[k] = true
			hits = append(hits, h)
		}
	}
	for i, c := range cands {
		if len(hits) == limit {
			break
		}
		if c.text == nil && p.strict {
			// Many candidates may lack the phrase: read the next ones'
			// texts together, one read per file.
			win := cands[i:min(len(cands), i+phraseReadAhead)]
			texts := s.chunkTexts(len(win), func(k int) (string, chunk.Meta) { return win[k].hit.Path, win[k].meta })
			for k := range win {
				win[k].text = texts[k]
			}
			c.text = cands[i].text
		}
		text := c.text
		if text == nil {
			text = s.chunkText(c.hit.Path, c.meta)
		}
		if p.strict && !holdsPhrases(text, p.phrases) {
			continue
		}
		c.hit, text = s.narrow(p, c, text)
		// The pool's texts are read unmasked; what a hit shows is masked.
		c.hit.Excerpt = excerpt(secret.Redact(bytes.Clone(text)), p.terms)
		var why rank.Breakdown
		if c.why != nil {
			c.hit.Explain, why = *c.why, *c.why
		}
		add(c.hit)
		if len(hits) <= delegationHits { // the delegation stage (delegate.go)
			for _, h := range s.callees(p, c.hit, text, why, s.ix.rank.DelegationShare) {
				add(h)
			}
		}
	}
	return hits
}

func termQuery(term, field string, boost float64) query.Query {
	q := query.NewTermQuery(term)
	q.SetField(field)
	if boost > 0 {
		q.SetBoost(boost)
	}
	return q
}
