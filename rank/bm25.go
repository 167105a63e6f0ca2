package rank

import "bytes"

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

// symbolNames appends the names of the units a candidate holds to buf,
// as one text.
func symbolNames(buf []byte, c *Cand) []byte {
	buf = append(buf, c.Meta.Symbol...)
	for _, pm := range c.Meta.Parts {
		buf = append(append(buf, ' '), pm.Symbol...)
	}
	return buf
}

// textCounts are the counts of tm's terms in the text it last scanned
// (a chunk's text and path, the comment lines its ranges) where a word
// or an identifier part starts (termMatcher.count), a count on a comment
// line weighing commentWeight (comments.go), written to out; and the set
// of the terms counted at all (the first 64).
func (tm *termMatcher) textCounts(commentWeight float64, out []float64) uint64 {
	var mask uint64
	for j := range out {
		code, comment := tm.count(j)
		out[j] = float64(code) + commentWeight*float64(comment)
		if j < 64 && code+comment > 0 {
			mask |= 1 << j
		}
	}
	return mask
}

// bm25 scores each chunk of a pool (lens[i] its length in words and
// parts, counts[i] its terms' counts, names[i] their counts in the names
// of its units, nil when symW is 0) for terms weighted by idf; a term in
// a unit's name counts symW times more.
func bm25(lens []float64, counts, names [][]float64, idf []float64, k1, b, symW float64) []float64 {
	n := len(lens)
	var sum float64
	for i := range n {
		sum += lens[i]
	}
	avg := sum / float64(max(n, 1))
	if avg == 0 {
		avg = 1
	}
	out := make([]float64, n)
	for i := range n {
		norm := k1 * (1 - b + b*lens[i]/avg)
		for j := range counts[i][:min(len(counts[i]), len(idf))] {
			tf := counts[i][j]
			if symW > 0 {
				tf += symW * names[i][j]
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

// nameCounts writes to out each term's count in names, the names of a
// chunk's units (symbolNames), where a word or an identifier part starts
// (termMatcher.count). The names are compared lower-cased by
// bytes.ToLower: a name that is not ASCII (an accented identifier) is
// counted as lower-cased by Unicode, each string searched on its own (a
// rare case, and a few bytes).
func (tm *termMatcher) nameCounts(names []byte, out []float64) {
	if isASCII(names) {
		tm.scan(names, nil, nil)
		for j := range out {
			o, _ := tm.count(j)
			out[j] = float64(o)
		}
		return
	}
	low := bytes.ToLower(names)
	at := func(k int) int {
		if k < 0 {
			return 0
		}
		return wordStartsIn(names, low, tm.needles[k])
	}
	for j := range out {
		tn := &tm.terms[j]
		n := at(tn.self) + at(tn.y)
		for _, a := range tn.abbrevs {
			n = max(n, at(a))
		}
		out[j] = float64(n)
	}
}

// wordStartsIn counts where s occurs in low at the start of a word or an
// identifier part of orig (low is orig lower-cased, offsets as they
// fall).
func wordStartsIn(orig, low []byte, s string) int {
	n := 0
	for off := 0; ; {
		i := bytes.Index(low[off:], []byte(s))
		if i < 0 || i+off >= len(orig) {
			return n
		}
		i += off
		if i == 0 || partStart(orig[i-1], orig[i]) {
			n++
		}
		off = i + 1
	}
}
