package rank

import (
	"math"
	"slices"
	"sync"
)

// Reranking by coverage: bleve's tf-idf gives a short chunk that holds
// one rare query word (often in its symbol name) more than a longer one
// that holds most of the question. The candidates (at least
// Params.RerankPool, as many as the limit fetches) are scored again by
// score × coverage^CoveragePower, where coverage is the share of the
// query's terms found in the chunk's text or path. Reading the pool's
// chunks costs one read per file (index reads them, see Rerank), so only questions of
// RerankMinTerms terms or more are reranked.

// coverage is the share of terms (weighted) that occur in text or path.
// A term counts where a word or an identifier part starts (so "compar"
// matches "compare" and "ConstantTimeCompare", "run" does not match
// "prune"); a Porter stem ending in "i" ("librari") also matches with
// "y".
//
// A coverer holds the chunks of one question's rerank, each with its
// path (after a line break), back to back in one buffer: each is scanned
// twice (the question's terms, then the feedback terms), and a question
// reranks 200. A coverer made for a pool (newCoverer) also holds each
// chunk's marks: the places where a word or a part starts, as the first
// scan (measure) finds them, so that the second visits those only.
type coverer struct {
	buf   []byte
	spans []int // chunk i: buf[spans[i]:spans[i+1]]

	marking bool     // add gives each chunk its marks
	marks   []uint64 // chunk i: marks[mspans[i]:mspans[i+1]], a bit a byte
	mspans  []int
}

// add appends a chunk and returns its number.
func (cv *coverer) add(text []byte, path string) int {
	if cv.spans == nil {
		cv.spans = []int{0}
	}
	cv.buf = append(append(append(cv.buf, text...), '\n'), path...)
	cv.spans = append(cv.spans, len(cv.buf))
	ch := len(cv.spans) - 2
	if cv.marking {
		if cv.mspans == nil {
			cv.mspans = []int{0}
		}
		n := len(cv.text(ch))
		cv.marks = slices.Grow(cv.marks, (n+63)/64)[:len(cv.marks)+(n+63)/64] // scan sets each word
		cv.mspans = append(cv.mspans, len(cv.marks))
	}
	return ch
}

// text returns chunk's text and path.
func (cv *coverer) text(chunk int) []byte {
	return cv.buf[cv.spans[chunk]:cv.spans[chunk+1]]
}

// marksOf returns chunk's marks (nil unless the coverer marks).
func (cv *coverer) marksOf(chunk int) []uint64 {
	if !cv.marking {
		return nil
	}
	return cv.marks[cv.mspans[chunk]:cv.mspans[chunk+1]]
}

// coverage is the share of terms (weighted) chunk holds, as tm (which
// looks for terms) finds them: at the chunk's marks only when it can.
func (cv *coverer) coverage(chunk int, tm *termMatcher, weights []float64) float64 {
	if marks := cv.marksOf(chunk); marks != nil && tm.marked {
		tm.scanMarked(cv.text(chunk), marks)
	} else {
		tm.scan(cv.text(chunk), nil, nil)
	}
	return maskCoverage(tm.mask(), weights)
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

// partStart: b starts a word or an identifier part after a.
func partStart(a, b byte) bool {
	ca, cb := byteClass[a], byteClass[b]
	switch {
	case ca == other:
		return a < 0x80 // not inside a non-ASCII word
	case ca == lower && cb == upper:
		return true
	}
	return (ca == digit) != (cb == digit)
}

// The classes of a byte partStart tells apart.
const (
	other = iota
	lower
	upper
	digit
)

// byteClass is each byte's class (a table: partStart runs on every byte
// of the reranked chunks).
var byteClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = lower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = upper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = digit
	}
	return t
}()

// Covers is the share of terms (each counting 1) that text or path holds
// where a word starts, as coverage counts them: what index scores the
// chunks of an open buffer it has not indexed by, and the units a hit
// calls (CalleeScore).
func Covers(text []byte, path string, terms []string) float64 {
	st := coversStates.Get().(*coversState)
	defer coversStates.Put(st)
	if st.tm == nil || !slices.Equal(st.terms, terms) {
		st.terms = slices.Clone(terms)
		st.tm = newTermMatcher(terms, nil, nil)
		st.weights = make([]float64, len(terms))
		for i := range st.weights {
			st.weights[i] = 1
		}
	}
	st.cv.buf, st.cv.spans = st.cv.buf[:0], append(st.cv.spans[:0], 0)
	return st.cv.coverage(st.cv.add(text, path), st.tm, st.weights)
}

// A coversState is Covers' matcher for its last terms, with its buffer:
// index asks Covers of each unit a hit calls, with the question's terms
// each time, and a matcher costs more to make than a unit to scan.
type coversState struct {
	terms   []string
	tm      *termMatcher
	weights []float64
	cv      coverer
}

var coversStates = sync.Pool{New: func() any { return new(coversState) }}
