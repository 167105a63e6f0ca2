package rank

import (
	"slices"
	"sync"
)

// poolCounts is what one pass over each chunk of a rerank's pool finds
// of the question (termMatcher.scan), for coverage, BM25 and proximity.
type poolCounts struct {
	counts [][]float64 // each term's count in chunk i's text and path (textCounts)
	masks  []uint64    // the terms chunk i holds (the first 64)
	lens   []float64   // chunk i's words and parts: its length for BM25
	names  [][]float64 // each term's count in the names of chunk i's units; nil unless BM25 counts them
	pairs  []float64   // the share of the question's pairs chunk i holds side by side; nil without proximity
}

// coverers keeps the coverers of finished reranks for the next: a
// rerank copies its pool's texts (some 300 KB for 200 chunks of Go).
var coverers = sync.Pool{New: func() any { return new(coverer) }}

// newCoverer returns an empty coverer that marks, sized for the texts
// and paths of pool; release gives it back.
func newCoverer(pool []Cand) *coverer {
	size := 0
	for i := range pool {
		size += len(pool[i].Text) + 1 + len(pool[i].Path)
	}
	cv := coverers.Get().(*coverer)
	cv.buf = slices.Grow(cv.buf[:0], size)
	cv.spans = append(cv.spans[:0], 0)
	cv.marking = true
	cv.marks = slices.Grow(cv.marks[:0], size/64+len(pool))
	cv.mspans = append(cv.mspans[:0], 0)
	return cv
}

// release gives cv back to coverers: nothing may use it or its texts
// after.
func (cv *coverer) release() {
	coverers.Put(cv)
}

// measure adds each chunk of pool to cv, in order, and counts the terms
// of p in it, its text and path once, the names of its units once.
func (cv *coverer) measure(pool []Cand, p *Plan, prm *Params) poolCounts {
	var pairs [][2]string
	if prm.ProximityBoost > 0 {
		pairs = p.Pairs
	}
	tm := newTermMatcher(p.Terms, p.Abbrevs, pairs)
	n, nt := len(pool), len(p.Terms)
	pc := poolCounts{counts: make([][]float64, n), masks: make([]uint64, n), lens: make([]float64, n)}
	counts := make([]float64, n*nt)
	var names []float64
	if prm.TextWeight > 0 && prm.BM25Symbol > 0 {
		pc.names, names = make([][]float64, n), make([]float64, n*nt)
	}
	if len(pairs) > 0 {
		pc.pairs = make([]float64, n)
	}
	var buf []byte
	for i := range pool {
		c := &pool[i]
		ch := cv.add(c.Text, c.Path)
		pc.lens[i] = float64(tm.scan(cv.text(ch), commentLines(c.Text, c.Language), cv.marksOf(ch)))
		pc.counts[i] = counts[i*nt : (i+1)*nt : (i+1)*nt]
		pc.masks[i] = tm.textCounts(prm.CommentWeight, pc.counts[i])
		if pc.pairs != nil {
			pc.pairs[i] = tm.pairShare()
		}
		if pc.names != nil {
			buf = symbolNames(buf[:0], c)
			pc.names[i] = names[i*nt : (i+1)*nt : (i+1)*nt]
			tm.nameCounts(buf, pc.names[i])
		}
	}
	return pc
}
