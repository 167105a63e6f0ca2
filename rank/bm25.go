package rank

import (
	"bytes"
	"strings"
)

// The text score of a reranked question: bleve's tf-idf takes the
// square root of a term's count and divides by the square root of the
// chunk's length, so a two-line chunk that names one rare word outscores
// the function that holds most of the question. BM25 over the pool's
// texts saturates a term's count (Params.BM25K1) and weighs a chunk's
// length against the pool's average (BM25B); a term counts where a word
// or an identifier part starts, as coverage counts it, in the chunk's
// text and path, and BM25Symbol times more in the names of its units. A
// term's weight is its pool idf, the one coverage uses. Each candidate's
// base score becomes (1 − TextWeight) × bleve's + TextWeight × BM25's,
// each as a share of the pool's best (textScores): both measures count,
// and what BM25 adds is computed from the pool alone, so it means the
// same for candidates of several roots and of open buffers.

// wordStartsOf counts where t occurs in low at the start of a word or an
// identifier part of orig, stopping at limit (-1: none).
func wordStartsOf(orig, low []byte, t string, limit int) int {
	n := 0
	for off := 0; n != limit; {
		i := bytes.Index(low[off:], []byte(t))
		if i < 0 {
			break
		}
		i += off
		if i == 0 || partStart(orig[i-1], orig[i]) {
			n++
		}
		off = i + 1
	}
	return n
}

// wordStarts counts the words and identifier parts of orig: a chunk's
// length in BM25's terms.
func wordStarts(orig []byte) int {
	n := 0
	for i := range orig {
		if !isWordByte(orig[i]) {
			continue
		}
		if i == 0 || partStart(orig[i-1], orig[i]) {
			n++
		}
	}
	return n
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// symbolNames are the names of the units a candidate holds, as one text.
func symbolNames(c *Cand) (orig, low []byte) {
	orig = append(orig, c.Meta.Symbol...)
	for _, pm := range c.Meta.Parts {
		orig = append(append(orig, ' '), pm.Symbol...)
	}
	return orig, bytes.ToLower(orig)
}

// counts returns how often each term occurs in chunk's text or path
// where a word or an identifier part starts, as holds finds it (a stem
// ending in "i" also counts where it ends in "y"; an abbreviation of it
// counts when more often): apart in the comment lines (comments, byte
// ranges of the chunk's text) and elsewhere.
func (cv *coverer) counts(chunk int, terms []string, abbrevs map[string][]string, comments [][2]int) (code, comment []int) {
	orig, low := cv.texts(chunk)
	code, comment = make([]int, len(terms)), make([]int, len(terms))
	for i, t := range terms {
		code[i], comment[i] = countTerm(orig, low, t, abbrevs[t], comments)
	}
	return code, comment
}

// textCounts counts the terms of p in the text and path of chunk, c's, a
// count on a comment line weighing commentWeight (comments.go), and
// returns them with the set of terms counted at all.
func (cv *coverer) textCounts(chunk int, c *Cand, p *Plan, commentWeight float64) ([]float64, uint64) {
	code, comment := cv.counts(chunk, p.Terms, p.Abbrevs, commentLines(c.Text, c.Language))
	out := make([]float64, len(p.Terms))
	var mask uint64
	for j := range out {
		out[j] = float64(code[j]) + commentWeight*float64(comment[j])
		if j < 64 && code[j]+comment[j] > 0 {
			mask |= 1 << j
		}
	}
	return out, mask
}

// countTerm counts t where a word starts (a stem ending in "i" also
// where it ends in "y"), or, when more often, one of its abbreviations;
// apart inside ranges and outside them.
func countTerm(orig, low []byte, t string, abbrevs []string, ranges [][2]int) (out, in int) {
	out, in = wordStartsSplit(orig, low, t, ranges)
	if strings.HasSuffix(t, "i") {
		o, i := wordStartsSplit(orig, low, t[:len(t)-1]+"y", ranges)
		out, in = out+o, in+i
	}
	for _, a := range abbrevs {
		if o, i := wordStartsSplit(orig, low, a, ranges); o+i > out+in {
			out, in = o, i
		}
	}
	return out, in
}

// wordStartsSplit counts where t occurs in low at the start of a word or
// an identifier part of orig, apart inside ranges (sorted, disjoint) and
// outside them.
func wordStartsSplit(orig, low []byte, t string, ranges [][2]int) (out, in int) {
	return occurrences(orig, low, t, ranges, true)
}

// occurrences counts where t occurs in low (at the start of a word or an
// identifier part of orig when atStart), apart inside ranges (sorted,
// disjoint) and outside them.
func occurrences(orig, low []byte, t string, ranges [][2]int, atStart bool) (out, in int) {
	r := 0
	for off := 0; ; {
		i := bytes.Index(low[off:], []byte(t))
		if i < 0 {
			return out, in
		}
		i += off
		if !atStart || i == 0 || partStart(orig[i-1], orig[i]) {
			for r < len(ranges) && ranges[r][1] <= i {
				r++
			}
			if r < len(ranges) && ranges[r][0] <= i {
				in++
			} else {
				out++
			}
		}
		off = i + 1
	}
}

// bm25 scores each chunk of cv (pool's, in order; counts[i] its terms'
// counts) for terms weighted by idf; a term in a unit's name counts symW
// times more.
func (cv *coverer) bm25(pool []Cand, terms []string, abbrevs map[string][]string, counts [][]float64, idf []float64, k1, b, symW float64) []float64 {
	n := len(pool)
	lens := make([]float64, n)
	var sum float64
	for i := range n {
		orig, _ := cv.texts(i)
		lens[i] = float64(wordStarts(orig))
		sum += lens[i]
	}
	avg := sum / float64(max(n, 1))
	if avg == 0 {
		avg = 1
	}
	out := make([]float64, n)
	for i := range n {
		norm := k1 * (1 - b + b*lens[i]/avg)
		so, sl := symbolNames(&pool[i])
		for j, t := range terms[:min(len(terms), len(idf))] {
			tf := counts[i][j]
			if symW > 0 {
				o, _ := countTerm(so, sl, t, abbrevs[t], nil)
				tf += symW * float64(o)
			}
			if tf > 0 {
				out[i] += idf[j] * tf * (k1 + 1) / (tf + norm)
			}
		}
	}
	return out
}

// textScores gives each candidate the base score (1-w) × its bleve score
// + w × its BM25 score, each as a share of the pool's best, times the
// pool's best bleve score; the factors earlier stages put on it stay.
func textScores(pool []Cand, bm []float64, w float64) {
	var bestBase, bestBM float64
	for i := range pool {
		bestBase = max(bestBase, pool[i].Base)
		bestBM = max(bestBM, bm[i])
	}
	if bestBase == 0 || bestBM == 0 {
		return
	}
	for i := range pool {
		c := &pool[i]
		if c.Base <= 0 {
			continue
		}
		f := ((1-w)*c.Base/bestBase + w*bm[i]/bestBM) * bestBase / c.Base
		c.Score *= f
		c.Why.Add(StageCoverage, "bm25", f)
	}
}
