package index

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
)

// Search limits.
const (
	maxQueryBytes = 4096
	maxQueryTerms = 48
	defaultLimit  = 10
	maxLimit      = 200
)

// Boosts of the fields, chosen on goroot.jsonl (see the README).
var (
	boostSymbol = 1.5
	boostPath   = 1.5
	// For plain English words of a longer question: a symbol name is a
	// short field, so one common word there ("Writer", "Stream") outscored
	// chunks holding most of the question when it weighed 3.
	boostSymbolNL = 1.5
	boostPathNL   = 1.5
	boostPhrase   = 2.0
	// testFactor scales the score of test files unless the query is
	// about tests.
	testFactor = 0.5
)

// tuneTFIDF builds new indexes with tf-idf scoring instead of BM25 (for
// measuring only).
var tuneTFIDF = false

// ASKLS_TUNE="symbol=3,path=1.5,test=0.5" overrides the boosts: for
// measuring with askls eval, not for users.
func init() {
	for _, kv := range strings.Split(os.Getenv("ASKLS_TUNE"), ",") {
		k, v, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			continue
		}
		switch k {
		case "symbol":
			boostSymbol = f
		case "path":
			boostPath = f
		case "phrase":
			boostPhrase = f
		case "test":
			testFactor = f
		case "second":
			fileSecondWeight = f
		case "tfidf":
			tuneTFIDF = f == 1
		case "nlsymbol":
			boostSymbolNL = f
		case "nlpath":
			boostPathNL = f
		case "cov":
			coveragePower = f
		case "idf":
			tuneIDF = f == 1
		case "extra":
			fileExtraHits = int(f)
		case "share":
			fileExtraShare = f
		case "minterms":
			rerankMinTerms = int(f)
		case "qual":
			boostQualified = f
		case "keep":
			narrowKeep = f
		case "fbw":
			feedbackWeight = f
		case "fbk":
			feedbackDocs = int(f)
		case "fbm":
			feedbackTermCount = int(f)
		case "pool":
			rerankPool = int(f)
		}
	}
}

// bleve switches a disjunction of more than DisjunctionHeapTakeover
// clauses (10) to a heap; a question here is 3 clauses per term (content,
// symbol, path), 15-30 clauses, and the plain slice measured 5-10 %
// faster on the bench's questions and identifiers (go test -bench
// 'Search$', both settings alternated), with goroot.jsonl's ranks the
// same question by question.
func init() { searcher.DisjunctionHeapTakeover = 64 }

// stopWords are dropped from queries: English function words, the words
// questions about code are phrased with, the heads of negative
// contractions ("doesn't" is cut to "doesn" by queryTerms) and the Latin
// abbreviations of prose ("e.g.", "i.e.": written with a dot, they would
// pass for code words, and Go comments hold them everywhere).
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for from with without into onto
	over under about as is are was were be been being do does did done doing have has had having
	it its it's this that these those there here then than so such not no nor only own same too very
	can could should would will shall may might must i me my we our you your he she they them their
	what which who whom whose where when why how all any both each few more most other some
	just also again once out up down off further while until because before after above below between through during
	where's what's how's get gets got make makes made use used uses using way ways thing things
	code function functions method methods implemented implement implementation defined define
	find look happens happen actually called call calls does go golang
	aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shan shouldn wasn weren won wouldn
	e.g i.e vs`) {
		stopWords[w] = true
	}
}

// queryTerms analyses q like the content and drops stop words. code
// holds the terms that come from words written like code (ServeHTTP,
// max_len, http.Get, utf8): for those the symbol and path fields count
// fully; for plain English words they count less.
func queryTerms(q string) (terms []string, all []string, code map[string]bool) {
	seen := map[string]bool{}
	code = map[string]bool{}
	for _, w := range strings.FieldsFunc(q, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ',' || r == '?' || r == '(' || r == ')' || r == '"'
	}) {
		w = cutContraction(w)
		codeLike := isCodeWord(w)
		for _, t := range analyzeCode([]byte(w), nil) {
			term := string(t.Term)
			if codeLike {
				code[term] = true
			}
			if seen[term] {
				continue
			}
			seen[term] = true
			all = append(all, term)
			if !stopWords[term] {
				terms = append(terms, term)
			}
		}
	}
	return terms, all, code
}

// cutContraction drops the tail of a contraction or a possessive
// ("doesn't", "I've", "Go's"): it is never a search term, and the heads
// of negative contractions ("doesn") are stop words. An apostrophe
// followed by anything else (config['timeout']) is left alone.
func cutContraction(w string) string {
	i := strings.IndexAny(w, "'\u2019")
	if i <= 0 {
		return w
	}
	_, n := utf8.DecodeRuneInString(w[i:])
	switch strings.ToLower(strings.TrimRight(w[i+n:], ".:;!")) {
	case "s", "t", "ve", "ll", "re", "d", "m":
		return w[:i]
	}
	return w
}

// isCodeWord: an inner capital, an underscore, an inner dot or a digit.
func isCodeWord(w string) bool {
	w = strings.Trim(w, ".:;!'`")
	for i, r := range w {
		switch {
		case r == '_', r >= '0' && r <= '9':
			return true
		case r == '.' && i > 0 && i < len(w)-1:
			return true
		case r >= 'A' && r <= 'Z' && i > 0:
			return true
		}
	}
	return false
}

// qualifiedRE matches a package-qualified name: a lower-case qualifier,
// a dot, an identifier.
var qualifiedRE = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Za-z_][A-Za-z0-9_]*)\b`)

// boostQualified weighs a qualified name's definition (see Search).
var boostQualified = 3.0

var phraseRE = regexp.MustCompile(`"([^"]+)"`)

// Search ranks the chunks that match query, best first.
func (s *Snapshot) Search(ctx context.Context, q string, limit int, f Filter) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, fmt.Errorf("%w: empty query", ErrBadQuery)
	}
	if len(q) > maxQueryBytes {
		return nil, fmt.Errorf("%w: query is %d bytes long, the limit is %d", ErrBadQuery, len(q), maxQueryBytes)
	}
	if limit <= 0 {
		limit = defaultLimit
	}
	if limit > maxLimit {
		limit = maxLimit
	}
	var globRE *regexp.Regexp
	if f.PathGlob != "" {
		var err error
		if globRE, err = compileGlob(f.PathGlob); err != nil {
			return nil, fmt.Errorf("%w: glob %q: %v", ErrBadQuery, f.PathGlob, err)
		}
	}

	// A quoted phrase: all its terms must match, then the chunk's text
	// must hold the phrase (case and spacing aside).
	var phrases []string
	var phraseTermsAll []string
	for _, m := range phraseRE.FindAllStringSubmatch(q, -1) {
		if p := normalizeSpace(m[1]); p != "" {
			phrases = append(phrases, p)
			for _, t := range analyzeCode([]byte(m[1]), nil) {
				phraseTermsAll = append(phraseTermsAll, string(t.Term))
			}
		}
	}
	terms, all, code := queryTerms(q)
	short := len(terms) <= 3
	if len(terms) == 0 {
		terms = all
	}
	if len(terms) == 0 && len(phrases) == 0 {
		return nil, fmt.Errorf("%w: the query has no searchable words", ErrBadQuery)
	}
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	aboutTests := false
	for _, t := range terms {
		if strings.HasPrefix(t, "test") || t == "benchmark" || t == "example" {
			aboutTests = true
		}
	}

	var should []query.Query
	for _, t := range terms {
		bs, bp := boostSymbol, boostPath
		if !code[t] && !short {
			bs, bp = boostSymbolNL, boostPathNL
		}
		should = append(should, termQuery(t, fieldContent, 1), termQuery(t, fieldSymbol, bs), termQuery(t, fieldPath, bp))
	}
	// A qualified name (errors.Is, http.Get, sql.DB): the chunk that
	// defines the name in a folder named like the qualifier.
	if boostQualified > 0 {
		for _, m := range qualifiedRE.FindAllStringSubmatch(q, 8) {
			// Analysed as the fields are (lower case, stems): the first
			// token of a word is the whole word.
			pkg, name := analyzeCode([]byte(m[1]), nil), analyzeCode([]byte(m[2]), nil)
			if len(pkg) == 0 || len(name) == 0 {
				continue
			}
			should = append(should, query.NewConjunctionQuery([]query.Query{
				termQuery(string(name[0].Term), fieldSymbol, boostQualified), termQuery(string(pkg[0].Term), fieldPath, boostQualified)}))
		}
	}
	var must []query.Query
	// Only quoted phrases: they must match. Phrases inside a question
	// only raise the chunks that hold them.
	strict := len(phrases) > 0 && strings.TrimSpace(phraseRE.ReplaceAllString(q, "")) == ""
	if strict {
		for _, t := range phraseTermsAll {
			must = append(must, termQuery(t, fieldContent, boostPhrase))
		}
	}
	if len(f.Languages) > 0 {
		var ls []query.Query
		for _, l := range f.Languages {
			ls = append(ls, termQuery(strings.ToLower(l), fieldLang, 1))
		}
		must = append(must, query.NewDisjunctionQuery(ls))
	}
	var mustNot []query.Query
	if f.NoTests {
		mustNot = append(mustNot, termQuery("1", fieldTest, 1))
	}

	want := max(limit*4, 40)
	rerank := coveragePower > 0 && len(terms) >= rerankMinTerms
	if rerank {
		want = max(want, rerankPool)
	}
	rerankN := want
	if strict {
		want *= 5 // many will not hold the phrase
	}
	type cand struct {
		hit   Hit
		score float64
		meta  chunkMeta
		text  []byte // read for the rerank, else nil
	}
	var cands []cand
	for _, r := range s.ix.roots {
		rq := query.NewBooleanQuery(must, should, mustNot)
		var top query.Query = rq
		if globRE != nil {
			// Restrict to this root's paths that match the glob.
			var kws []query.Query
			prefix := ""
			if r.name != "" {
				prefix = r.name + "/"
			}
			s.st.index()
			for _, p := range s.st.paths {
				if strings.HasPrefix(p, prefix) && globRE.MatchString(p) {
					kws = append(kws, termQuery(p[len(prefix):], fieldPathKW, 0))
				}
			}
			if len(kws) == 0 {
				continue
			}
			if len(kws) > 1024 {
				kws = kws[:1024]
			}
			top = query.NewConjunctionQuery([]query.Query{rq, query.NewDisjunctionQuery(kws)})
		}
		req := bleve.NewSearchRequestOptions(top, want, 0, false)
		res, err := r.bi.SearchInContext(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("index: search: %w", err)
		}
		for _, h := range res.Hits {
			rel, n, ok := parseDocID(h.ID)
			if !ok {
				continue
			}
			api := r.api(rel)
			e := s.st.files[api]
			if e == nil || n >= len(e.Chunks) {
				continue // not in this generation
			}
			c := e.Chunks[n]
			score := h.Score
			if e.Test && !aboutTests {
				score *= testFactor
			}
			cands = append(cands, cand{Hit{Path: api, Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind,
				Language: e.Lang, Score: score}, score, c, nil})
		}
	}
	// Rerank the candidates by how much of the query each holds, then
	// by how much of the best ones' vocabulary it shares (feedback.go).
	// All that a query of this limit fetches: one left out would keep
	// bleve's score, which the factors of the others only lower (a
	// phrase query fetches more, to filter, and reranks as many as
	// without a phrase).
	if rerank {
		weights := s.termWeights(ctx, terms)
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
		pool := cands[:min(len(cands), rerankN)]
		texts := s.chunkTexts(len(pool), func(i int) (string, chunkMeta) { return pool[i].hit.Path, pool[i].meta })
		bleveScores := make([]float64, len(pool))
		size := 0
		for i := range pool {
			size += 2 * (len(texts[i]) + 1 + len(pool[i].hit.Path))
		}
		cv := coverer{buf: make([]byte, 0, size), spans: make([]int, 1, len(pool)+1)}
		for i := range pool {
			c := &pool[i]
			c.text = texts[i]
			bleveScores[i] = c.score
			cov := cv.coverage(cv.add(c.text, c.hit.Path), terms, weights)
			c.score *= math.Pow(cov, coveragePower)
		}
		if feedbackWeight > 0 {
			fbTerms, fbWeights := s.feedbackTerms(ctx, len(pool), func(i int) ([]byte, float64) { return pool[i].text, pool[i].score }, terms)
			for i := range pool {
				c := &pool[i]
				fb := cv.coverage(i, fbTerms, fbWeights)
				c.score = (1-feedbackWeight)*c.score + feedbackWeight*bleveScores[i]*fb
			}
		}
		for i := range pool {
			pool[i].hit.Score = pool[i].score
		}
	}
	cands, fileScores := rankByFile(cands, func(c cand) (string, float64) { return c.hit.Path, c.score })
	// A file's first hit carries the file's score, the one it is ranked by.
	firstSeen := map[string]bool{}
	for i := range cands {
		if p := cands[i].hit.Path; !firstSeen[p] {
			firstSeen[p] = true
			cands[i].hit.Score = fileScores[p]
		}
	}
	hits := make([]Hit, 0, limit)
	for i, c := range cands {
		if len(hits) == limit {
			break
		}
		if c.text == nil && strict {
			// Many candidates may lack the phrase: read the next ones'
			// texts together, one read per file.
			win := cands[i:min(len(cands), i+phraseReadAhead)]
			texts := s.chunkTexts(len(win), func(k int) (string, chunkMeta) { return win[k].hit.Path, win[k].meta })
			for k := range win {
				win[k].text = texts[k]
			}
			c.text = cands[i].text
		}
		text := c.text
		if text == nil {
			text = s.chunkText(c.hit.Path, c.meta)
		}
		if strict && !holdsPhrases(text, phrases) {
			continue
		}
		if len(c.meta.Parts) > 0 {
			// Narrow a merged chunk to the unit the query is about.
			li := newLineIndex(text)
			partText := func(p partMeta) []byte { return li.text(text, p.Start-c.meta.Start+1, p.End-c.meta.Start+1) }
			scores := make([]int, len(c.meta.Parts))
			bi := 0
			for i, p := range c.meta.Parts {
				sc := termScore(partText(p), terms)
				if strings.Contains(strings.ToLower(p.Symbol), strings.Join(terms, "")) {
					sc += 10
				}
				if len(phrases) > 0 && holdsPhrases(partText(p), phrases) {
					sc += 10
				}
				scores[i] = sc
				if sc > scores[bi] {
					bi = i
				}
			}
			// The neighbours that match nearly as well stay in the range:
			// a question often spans two adjacent small units.
			lo, hi := bi, bi
			if narrowKeep > 0 {
				for lo > 0 && scores[lo-1] > 0 && float64(scores[lo-1]) >= narrowKeep*float64(scores[bi]) {
					lo--
				}
				for hi < len(scores)-1 && scores[hi+1] > 0 && float64(scores[hi+1]) >= narrowKeep*float64(scores[bi]) {
					hi++
				}
			}
			best := c.meta.Parts[bi]
			c.hit.Start, c.hit.End, c.hit.Symbol, c.hit.Kind = c.meta.Parts[lo].Start, c.meta.Parts[hi].End, best.Symbol, best.Kind
			text = li.text(text, c.hit.Start-c.meta.Start+1, c.hit.End-c.meta.Start+1)
		}
		c.hit.Excerpt = excerpt(text, terms)
		hits = append(hits, c.hit)
	}
	return hits, nil
}

func termQuery(term, field string, boost float64) query.Query {
	q := query.NewTermQuery(term)
	q.SetField(field)
	if boost > 0 {
		q.SetBoost(boost)
	}
	return q
}

// chunkText returns the text of a chunk: from the open buffer, else only
// the chunk's bytes from disk when the file still has the size it had
// when indexed, else the lines from the whole current file.
func (s *Snapshot) chunkText(p string, c chunkMeta) []byte {
	if _, open := s.overlay[p]; !open && c.Len > 0 {
		if e := s.st.files[p]; e != nil {
			if r, rel := s.ix.rootOf(p); r != nil {
				if b, ok := readSpan(r, rel, e.Size, e.MTime, c.Off, c.Len); ok {
					return b
				}
			}
		}
	}
	data, err := s.Content(p)
	if err != nil {
		return nil
	}
	return newLineIndex(data).text(data, c.Start, c.End)
}

// maxSpanRead bounds the bytes read at once for the chunks of one file in
// chunkTexts; chunks further apart are read one by one.
const maxSpanRead = 256 << 10

// chunkTexts returns the texts of n chunks (path and meta of each from
// at): the chunks of one file are read with one open and one read of the
// span that holds them, when the file is not open in the editor, has the
// size it had when indexed and the span is small enough; else as
// chunkText does.
func (s *Snapshot) chunkTexts(n int, at func(int) (string, chunkMeta)) [][]byte {
	out := make([][]byte, n)
	byFile := map[string][]int{}
	var order []string
	for i := 0; i < n; i++ {
		p, _ := at(i)
		if byFile[p] == nil {
			order = append(order, p)
		}
		byFile[p] = append(byFile[p], i)
	}
	for _, p := range order {
		idx := byFile[p]
		e := s.st.files[p]
		_, open := s.overlay[p]
		if len(idx) > 1 && e != nil && !open {
			lo, hi, ok := -1, 0, true
			for _, i := range idx {
				_, c := at(i)
				if c.Len <= 0 {
					ok = false
					break
				}
				if lo < 0 || c.Off < lo {
					lo = c.Off
				}
				hi = max(hi, c.Off+c.Len)
			}
			if ok && hi-lo <= maxSpanRead {
				if r, rel := s.ix.rootOf(p); r != nil {
					if b, ok := readSpan(r, rel, e.Size, e.MTime, lo, hi-lo); ok {
						for _, i := range idx {
							_, c := at(i)
							out[i] = b[c.Off-lo : c.Off-lo+c.Len : c.Off-lo+c.Len]
						}
						continue
					}
				}
			}
		}
		for _, i := range idx {
			p, c := at(i)
			if e != nil && !open && c.Len > 0 {
				if r, rel := s.ix.rootOf(p); r != nil {
					if b, ok := readSpan(r, rel, e.Size, e.MTime, c.Off, c.Len); ok {
						out[i] = b
						continue
					}
				}
			}
			out[i] = s.chunkText(p, c)
		}
	}
	return out
}

// excerptLines is the size of an excerpt.
const excerptLines = 4

// excerpt picks the excerptLines lines of a chunk's text where the query
// terms are densest.
func excerpt(text []byte, terms []string) string {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if len(lines) == 0 {
		return ""
	}
	score := make([]int, len(lines))
	for i, l := range lines {
		low := strings.ToLower(l)
		for _, t := range terms {
			if strings.Contains(low, t) {
				score[i] += 1 + len(t)/4
			}
		}
	}
	best, bestAt := -1, 0
	for i := range lines {
		sum := 0
		for j := i; j < i+excerptLines && j < len(lines); j++ {
			sum += score[j]
		}
		if sum > best {
			best, bestAt = sum, i
		}
	}
	end := min(bestAt+excerptLines, len(lines))
	out := make([]string, 0, excerptLines)
	for _, l := range lines[bestAt:end] {
		out = append(out, capLine(strings.TrimRight(l, "\r")))
	}
	return strings.Join(out, "\n")
}

// fileSecondWeight is how much a file's other matching chunks add to its
// best chunk's score when files are ranked.
var fileSecondWeight = 0.15

// rankByFile orders candidates so that each file's best chunk comes first,
// files ranked by best score plus fileSecondWeight times the rest (capped
// at twice the best score); the files' other chunks follow, by score. It
// returns the files' scores too.
func rankByFile[T any](cs []T, key func(T) (string, float64)) ([]T, map[string]float64) {
	sort.SliceStable(cs, func(i, j int) bool {
		_, a := key(cs[i])
		_, b := key(cs[j])
		return a > b
	})
	fileScore := map[string]float64{}
	best := map[string]float64{}
	for _, c := range cs {
		p, sc := key(c)
		if _, ok := best[p]; !ok {
			best[p] = sc
			fileScore[p] = sc
			continue
		}
		fileScore[p] += fileSecondWeight * sc
	}
	for p, b := range best {
		fileScore[p] = min(fileScore[p], 2*b)
	}
	var firsts, rest []T
	seen := map[string]bool{}
	for _, c := range cs {
		p, _ := key(c)
		if seen[p] {
			rest = append(rest, c)
			continue
		}
		seen[p] = true
		firsts = append(firsts, c)
	}
	sort.SliceStable(firsts, func(i, j int) bool {
		pi, _ := key(firsts[i])
		pj, _ := key(firsts[j])
		return fileScore[pi] > fileScore[pj]
	})
	if fileExtraHits <= 0 {
		return append(firsts, rest...), fileScore
	}
	// Each file's next best chunks (up to fileExtraHits, scoring at least
	// fileExtraShare of its best) follow it at once: the right file's
	// right range is then shown before the next files.
	byFile := map[string][]T{}
	for _, c := range rest {
		p, _ := key(c)
		byFile[p] = append(byFile[p], c)
	}
	out := make([]T, 0, len(cs))
	var later []T
	for _, f := range firsts {
		out = append(out, f)
		p, _ := key(f)
		for i, c := range byFile[p] {
			if _, sc := key(c); i < fileExtraHits && sc >= fileExtraShare*best[p] {
				out = append(out, c)
			} else {
				later = append(later, c)
			}
		}
	}
	sort.SliceStable(later, func(i, j int) bool {
		_, a := key(later[i])
		_, b := key(later[j])
		return a > b
	})
	return append(out, later...), fileScore
}

// narrowKeep: a hit on a merged chunk is narrowed to its best unit and
// the adjacent units scoring at least narrowKeep of it (0: the best only).
var narrowKeep = 0.5

// fileExtraHits and fileExtraShare: see rankByFile.
var (
	fileExtraHits  = 2
	fileExtraShare = 0.3
)

// termScore counts the query terms on the lines of text, longer terms
// weighing more.
func termScore(text []byte, terms []string) int {
	low := strings.ToLower(string(text))
	n := 0
	for _, t := range terms {
		if c := strings.Count(low, t); c > 0 {
			n += min(c, 3) * (1 + len(t)/4)
		}
	}
	return n
}

// phraseReadAhead is how many candidates' texts a phrase query reads at
// once to check the phrase.
const phraseReadAhead = 32

// Reranking by coverage: bleve's tf-idf gives a short chunk that holds
// one rare query word (often in its symbol name) more than a longer one
// that holds most of the question. The candidates (at least
// rerankPool, as many as the limit fetches) are scored again by score ×
// coverage^coveragePower, where coverage is the share of the query's
// terms found in the chunk's text or path. The pool costs reading its chunks'
// text (one read per file, readSpan), about 1 ms, so only questions of
// rerankMinTerms terms or more are reranked.
var (
	coveragePower = 1.0
	rerankPool    = 200
	// rerankMinTerms: shorter queries (identifiers, a few words) are
	// ranked by bleve alone; coverage matters for questions.
	rerankMinTerms = 6
)

// coverage is the share of terms (weighted) that occur in text or path.
// A term counts where a word or an identifier part starts (so "compar"
// matches "compare" and "ConstantTimeCompare", "run" does not match
// "prune"); a Porter stem ending in "i" ("librari") also matches with
// "y".
//
// A coverer holds the chunks of one question's rerank, each with its
// path, as written and lower-cased, back to back in one buffer: coverage
// is asked of each twice (the question's terms, then the feedback terms),
// and a question reranks 200.
type coverer struct {
	buf   []byte
	spans []int // chunk i: buf[spans[i]:spans[i+1]], as written then lower-cased
}

// add appends a chunk and returns its number.
func (cv *coverer) add(text []byte, path string) int {
	if cv.spans == nil {
		cv.spans = []int{0}
	}
	start := len(cv.buf)
	cv.buf = append(append(append(cv.buf, text...), '\n'), path...)
	cv.buf = append(cv.buf, cv.buf[start:]...)
	low := cv.buf[start+(len(cv.buf)-start)/2:]
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	cv.spans = append(cv.spans, len(cv.buf))
	return len(cv.spans) - 2
}

func (cv *coverer) coverage(chunk int, terms []string, weights []float64) float64 {
	s, e := cv.spans[chunk], cv.spans[chunk+1]
	mid := s + (e-s)/2
	orig, low := cv.buf[s:mid], cv.buf[mid:e]
	var n, all float64
	for i, t := range terms {
		all += weights[i]
		if holdsWordStart(orig, low, t) || (strings.HasSuffix(t, "i") && holdsWordStart(orig, low, t[:len(t)-1]+"y")) {
			n += weights[i]
		}
	}
	if all == 0 {
		return 1
	}
	return n / all
}

// holdsWordStart reports whether t occurs in low (orig lower-cased, same
// offsets) where a word or an identifier part of orig starts.
func holdsWordStart(orig, low []byte, t string) bool {
	for off := 0; ; {
		i := bytes.Index(low[off:], []byte(t))
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || partStart(orig[i-1], orig[i]) {
			return true
		}
		off = i + 1
	}
}

// partStart: b starts a word or an identifier part after a.
func partStart(a, b byte) bool {
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	isUpper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	switch {
	case !isLower(a) && !isUpper(a) && !isDigit(a):
		return a < 0x80 // not inside a non-ASCII word
	case isLower(a) && isUpper(b):
		return true
	case isDigit(a) != isDigit(b):
		return true
	}
	return false
}

// termWeights gives each term its weight in coverage: 1, or its idf
// with tuneIDF, so that a rare word counts more than a common one.
func (s *Snapshot) termWeights(ctx context.Context, terms []string) []float64 {
	if !tuneIDF {
		w := make([]float64, len(terms))
		for i := range w {
			w[i] = 1
		}
		return w
	}
	return s.contentIDF(ctx, terms)
}

// contentIDF gives each term its inverse document frequency in the
// content field of the first root's index (1 each when unknown).
func (s *Snapshot) contentIDF(ctx context.Context, terms []string) []float64 {
	w := make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	if len(s.ix.roots) == 0 {
		return w
	}
	ai, err := s.ix.roots[0].bi.Advanced()
	if err != nil {
		return w
	}
	r, err := ai.Reader()
	if err != nil {
		return w
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil || n == 0 {
		return w
	}
	for i, t := range terms {
		tfr, err := r.TermFieldReader(ctx, []byte(t), fieldContent, false, false, false)
		if err != nil {
			continue
		}
		df := tfr.Count()
		tfr.Close()
		w[i] = math.Log(1 + float64(n)/float64(df+1))
	}
	return w
}

// tuneIDF: weigh terms by idf in coverage (ASKLS_TUNE idf=1). Off:
// each term counts once, which measured the same top-k and a better
// range overlap (22 against 19 of 35) without opening a reader.
var tuneIDF = false
