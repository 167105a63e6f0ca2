package index

import (
	"bytes"
	"context"
	"math"
	"sort"
	"strings"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
	"github.com/askls/askls/words"
)

// Reranking by coverage: bleve's tf-idf gives a short chunk that holds
// one rare query word (often in its symbol name) more than a longer one
// that holds most of the question. The candidates (at least
// Ranking.RerankPool, as many as the limit fetches) are scored again by
// score × coverage^CoveragePower, where coverage is the share of the
// query's terms found in the chunk's text or path. Reading the pool's
// chunks costs one read per file (readSpan), so only questions of
// RerankMinTerms terms or more are reranked.

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

// texts returns chunk's text and path as written and lower-cased.
func (cv *coverer) texts(chunk int) (orig, low []byte) {
	s, e := cv.spans[chunk], cv.spans[chunk+1]
	mid := s + (e-s)/2
	return cv.buf[s:mid], cv.buf[mid:e]
}

func (cv *coverer) coverage(chunk int, terms []string, weights []float64) float64 {
	return maskCoverage(cv.holds(chunk, terms), weights)
}

// holds returns the set of terms (at most 64) chunk's text or path holds
// where a word starts, as a bit mask.
func (cv *coverer) holds(chunk int, terms []string) uint64 {
	orig, low := cv.texts(chunk)
	var m uint64
	for i, t := range terms[:min(len(terms), 64)] {
		if holdsWordStart(orig, low, t) || (strings.HasSuffix(t, "i") && holdsWordStart(orig, low, t[:len(t)-1]+"y")) {
			m |= 1 << i
		}
	}
	return m
}

// maskCoverage is the weighted share of the terms in mask.
func maskCoverage(mask uint64, weights []float64) float64 {
	var n, all float64
	for i, w := range weights[:min(len(weights), 64)] {
		all += w
		if mask&(1<<i) != 0 {
			n += w
		}
	}
	if all == 0 {
		return 1
	}
	return n / all
}

// poolIDF weighs each term by how rare it is among the chunks whose
// masks are given: log(1 + (n+1)/(df+0.5)), df the number of chunks
// that hold the term. A term every candidate holds says little about
// which of them answers.
func poolIDF(masks []uint64, terms int) []float64 {
	w := make([]float64, terms)
	for j := range w {
		df := 0
		for _, m := range masks {
			if j < 64 && m&(1<<j) != 0 {
				df++
			}
		}
		w[j] = math.Log(1 + float64(len(masks)+1)/(float64(df)+0.5))
	}
	return w
}

// pairShare is the share of pairs chunk's text or path holds side by
// side (proximity.go).
func (cv *coverer) pairShare(chunk int, pairs [][2]string) float64 {
	orig, low := cv.texts(chunk)
	return pairShare(orig, low, pairs)
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
		tfr, err := r.TermFieldReader(ctx, []byte(t), store.FieldContent, false, false, false)
		if err != nil {
			continue
		}
		df := tfr.Count()
		tfr.Close()
		w[i] = math.Log(1 + float64(n)/float64(df+1))
	}
	return w
}

// poolTexts returns the texts of the candidates, reading those not read
// yet (one read per file).
func (s *Snapshot) poolTexts(pool []cand) [][]byte {
	var missing []int
	for i := range pool {
		if pool[i].text == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		texts := s.chunkTexts(len(missing), func(k int) (string, chunk.Meta) {
			return pool[missing[k]].hit.Path, pool[missing[k]].meta
		})
		for k, i := range missing {
			pool[i].text = texts[k]
		}
	}
	out := make([][]byte, len(pool))
	for i := range pool {
		out[i] = pool[i].text
	}
	return out
}

// preferExact applies ExactMissFactor and DefinitionBoost to the best n
// candidates (reading their text) and ExactMissFactor to the others,
// which rank too low to be read: an identifier the user wrote as code is
// what they mean, its parts are only a hint.
func (s *Snapshot) preferExact(p *plan, cands []cand, n int) {
	rk := &s.ix.rank
	codeTerms := 0
	for _, t := range p.terms {
		if p.code[t] {
			codeTerms++
		}
	}
	miss := missFactor(rk.ExactMissFactor, max(codeTerms, len(p.idents)), len(p.terms))
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	pool := cands[:min(len(cands), n)]
	s.poolTexts(pool)
	for i := range cands {
		c := &cands[i]
		if i >= len(pool) {
			c.score *= miss
			c.why.Add(rank.StageExact, "unread", miss)
			c.hit.Score = c.score
			continue
		}
		sym := strings.ToLower(c.hit.Symbol)
		if j := strings.LastIndexAny(sym, ". "); j >= 0 {
			sym = sym[j+1:]
		}
		held, defines := false, false
		for _, id := range p.idents {
			if sym == id {
				defines = true
			}
			if holdsIdent(c.text, id) || holdsIdent([]byte(c.hit.Path), id) {
				held = true
			}
		}
		switch {
		case defines && !c.test:
			c.score *= rk.DefinitionBoost
			c.why.Add(rank.StageExact, "definition", rk.DefinitionBoost)
		case !held:
			c.score *= miss
			c.why.Add(rank.StageExact, "missing", miss)
		}
		c.hit.Score = c.score
	}
}

// missFactor is what a chunk that holds none of the query's identifiers
// scores: factor to the power of the identifiers' share of the query's
// terms (code: the terms of words written as code). A lookup that is
// one identifier (maxTokenSize: the whole and its parts) takes factor
// itself; in a question of ten terms with one identifier, the
// identifier is a tenth of what is asked (factor^0.1).
func missFactor(factor float64, code, terms int) float64 {
	if terms == 0 || code >= terms {
		return factor
	}
	return math.Pow(factor, float64(code)/float64(terms))
}

// holdsIdent reports whether text holds the identifier id (lower case) as
// a whole word, case aside: not inside a longer identifier.
func holdsIdent(text []byte, id string) bool {
	if len(id) == 0 {
		return false
	}
	for off := 0; off+len(id) <= len(text); {
		i := indexFold(text[off:], id)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(id)
		if (i == 0 || !words.IsIdentByte(text[i-1])) && (end == len(text) || !words.IsIdentByte(text[end])) {
			return true
		}
		off = i + 1
	}
	return false
}

// indexFold is bytes.Index with ASCII case folding; id is lower case.
func indexFold(text []byte, id string) int {
	first := id[0]
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+len(id) <= len(text); i++ {
		c := text[i]
		if c != first && c != upper {
			continue
		}
		j := 1
		for ; j < len(id); j++ {
			c := text[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != id[j] {
				break
			}
		}
		if j == len(id) {
			return i
		}
	}
	return -1
}

// nameBoost raises the candidates whose file name or folder name holds a
// plain word of the question (session/store.go for "how are sessions
// stored"): by factor per word, for at most two words.
func nameBoost(p *plan, cands []cand, factor float64) {
	if len(p.words) == 0 {
		return
	}
	want := map[string]bool{}
	for _, w := range p.words {
		want[w] = true
	}
	memo := map[string]float64{}
	for i := range cands {
		c := &cands[i]
		f, ok := memo[c.hit.Path]
		if !ok {
			n := 0
			for _, t := range store.AnalyzeCode([]byte(nameParts(c.hit.Path)), nil) {
				if want[string(t.Term)] {
					n++
				}
			}
			f = 1 + factor*float64(min(n, 2))
			memo[c.hit.Path] = f
		}
		c.score *= f
		c.why.Add(rank.StageCoverage, "name", f)
		c.hit.Score = c.score
	}
}

// nameParts is a path's file name without its extension and the name of
// its folder, "store session" for "app/session/store.go".
func nameParts(path string) string {
	base, dir := path, ""
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base, dir = path[i+1:], path[:i]
	}
	if j := strings.IndexByte(base, '.'); j > 0 {
		base = base[:j]
	}
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[i+1:]
	}
	return base + " " + dir
}
