package rank

import (
	mathbits "math/bits"
	"strings"
)

// One pass over a chunk: the rerank asks of each of its 200 chunks how
// often each term, its "y" form and its abbreviations start a word or an
// identifier part, apart in comments and in code (BM25), which terms it
// holds (coverage), which pairs of the question's words it holds side by
// side (proximity) and how many words and parts it has (BM25's length).
// A matcher answers all of it in one pass over the chunk's bytes: at
// each place a word or a part starts (partStart), it compares the
// strings it looks for that begin with that byte (and the next, as a
// filter), no other.

// A matcher is the set of strings (needles) one pass over a text looks
// for where a word or an identifier part starts, with the pairs it checks
// for proximity. It belongs to one search; scan's results are its own
// until the next scan.
type matcher struct {
	needles []string    // in order of their first byte
	first   [256]uint8  // 1 for a byte a needle starts with, either case of a letter
	lo      [257]int32  // the needles starting with byte b: needles[lo[b]:lo[b+1]]
	second  [256]uint64 // of the needles starting with byte b, bit c&63 of each second byte c (all: one of one byte)
	pairsOf [][]int     // needle k is the first word of pairs pairsOf[k]
	seconds []string    // pair i's second word

	marked bool // every needle starts with a letter, a digit or a non-ASCII byte (scanMarked)

	out, in []int  // per needle: where it starts a word outside the ranges, inside
	held    []bool // per pair: held side by side
}

// newMatcher looks for the strings of find (the empty string is never
// found; duplicates are looked for once) and checks pairs, whose first
// words it adds to the needles. index gives each string's needle.
func newMatcher(find []string, pairs [][2]string) (m *matcher, index map[string]int) {
	m = &matcher{}
	index = map[string]int{}
	var strs []string
	add := func(s string) {
		if _, ok := index[s]; !ok && s != "" {
			index[s] = len(strs) // until sorted
			strs = append(strs, s)
		}
	}
	for _, s := range find {
		add(s)
	}
	for _, pr := range pairs {
		add(pr[0])
	}
	// Counting sort by first byte.
	var count [256]int32
	for _, s := range strs {
		count[s[0]]++
	}
	for b := range 256 {
		m.lo[b+1] = m.lo[b] + count[b]
		if count[b] > 0 {
			m.first[b] = 1
			if 'a' <= b && b <= 'z' {
				m.first[b-'a'+'A'] = 1 // the text is compared lower-cased
			}
		}
	}
	m.marked = true
	for _, s := range strs {
		if scanClass[s[0]] == other {
			m.marked = false
		}
	}
	for _, s := range strs {
		if len(s) == 1 {
			m.second[s[0]] = ^uint64(0)
		} else {
			m.second[s[0]] |= 1 << (s[1] & 63)
		}
	}
	m.needles = make([]string, len(strs))
	next := m.lo
	for _, s := range strs {
		k := next[s[0]]
		next[s[0]]++
		m.needles[k] = s
		index[s] = int(k)
	}
	m.pairsOf = make([][]int, len(strs))
	m.seconds = make([]string, len(pairs))
	for i, pr := range pairs {
		m.seconds[i] = pr[1]
		if k, ok := index[pr[0]]; ok {
			m.pairsOf[k] = append(m.pairsOf[k], i)
		}
	}
	m.out, m.in = make([]int, len(strs)), make([]int, len(strs))
	m.held = make([]bool, len(pairs))
	return m, index
}

// The classes scan tells apart: partStart's, an ASCII byte that is not a
// letter or a digit apart from a non-ASCII byte.
const nonASCII = 4

// scanClass is each byte's class for scan.
var scanClass = func() (t [256]uint8) {
	t = byteClass
	for c := 0x80; c < 256; c++ {
		t[c] = nonASCII
	}
	return t
}()

// startFlags tells, by the classes of a byte (cl) and of the one before
// it (prev), at prev<<3 | cl, whether the byte starts a word or an
// identifier part (partStart; bit 0), whether it also is a letter or a
// digit (a word start in BM25's length; bit 1), and whether it starts
// one and is a letter, a digit or a non-ASCII byte (a place scanMarked
// visits; bit 2). A text's first byte has an ASCII space before it. (256
// entries: a byte indexes it without a bounds check.)
var startFlags = func() (t [256]uint8) {
	sample := [5]byte{' ', 'a', 'A', '0', 0x80}
	for a := range 5 {
		for b := range 5 {
			if !partStart(sample[a], sample[b]) {
				continue
			}
			t[a<<3|b] = 1
			if b != other && b != nonASCII {
				t[a<<3|b] |= 2
			}
			if b != other {
				t[a<<3|b] |= 4
			}
		}
	}
	return t
}()

// lowerASCII is each byte lower-cased, ASCII letters only.
var lowerASCII = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] = byte(c + 'a' - 'A')
		}
	}
	return t
}()

// scan counts, in m.out and m.in, where each needle occurs in text
// lower-cased (ASCII letters only) at the start of a word or an
// identifier part, apart inside ranges (sorted, disjoint byte ranges of
// text) and outside them; sets m.held for the pairs text holds side by
// side (pairAt); and returns the number of words and parts of text (the
// places where a letter or a digit starts one). It sets the bits of
// marks (one a byte of text, nil: none) where a letter, a digit or a
// non-ASCII byte starts a word or a part, for scanMarked.
func (m *matcher) scan(text []byte, ranges [][2]int, marks []uint64) (length int) {
	clear(m.out)
	clear(m.in)
	clear(m.held)
	r := 0
	prev := uint8(other)
	for base := 0; base < len(text); base += 64 {
		w, hits, n, last := scanBlock(text[base:min(base+64, len(text))], prev, &m.first)
		length += n
		prev = last
		if marks != nil {
			marks[base>>6] = w
		}
		for ; hits != 0; hits &= hits - 1 {
			if i := base + mathbits.TrailingZeros64(hits); m.mayMatch(text, i) {
				r = m.matchAt(text, i, ranges, r)
			}
		}
	}
	return length
}

// scanBlock returns, a bit a byte of block (64 bytes at most, after a
// byte of class prev), where a letter, a digit or a non-ASCII byte
// starts a word or a part (marks), where a byte that begins a needle
// (first) starts one (hits), the number of words and parts it starts
// (length) and its last byte's class. It has no branch but the loop's.
func scanBlock(block []byte, prev uint8, first *[256]uint8) (marks, hits uint64, length int, last uint8) {
	for j, c := range block {
		cl := scanClass[c]
		f := startFlags[prev<<3|cl]
		prev = cl
		length += int(f>>1) & 1
		marks |= uint64(f>>2) << (j & 63)
		hits |= uint64(f&first[c]) << (j & 63)
	}
	return marks, hits, length, prev
}

// scanMarked is scan, without ranges, pairs or length, where a scan has
// set marks: it visits the marked places only. Only a matcher whose
// needles all start with a letter, a digit or a non-ASCII byte
// (m.marked) finds with it all that scan finds.
func (m *matcher) scanMarked(text []byte, marks []uint64) {
	clear(m.out)
	clear(m.in)
	clear(m.held)
	for w, bits := range marks {
		for ; bits != 0; bits &= bits - 1 {
			i := w<<6 + mathbits.TrailingZeros64(bits)
			if m.first[text[i]] != 0 && m.mayMatch(text, i) {
				m.matchAt(text, i, nil, 0)
			}
		}
	}
}

// mayMatch reports whether a needle may start at text[i], by its first
// two bytes (m.second).
func (m *matcher) mayMatch(text []byte, i int) bool {
	var next byte
	if i+1 < len(text) {
		next = lowerASCII[text[i+1]]
	}
	return m.second[lowerASCII[text[i]]]>>(next&63)&1 != 0
}

// matchAt counts the needles that occur at text[i:], a word or part
// start, and checks their pairs; r is the first of the ranges that does
// not end before i, returned for the next start.
func (m *matcher) matchAt(text []byte, i int, ranges [][2]int, r int) int {
	b := int(lowerASCII[text[i]])
	for k := m.lo[b]; k < m.lo[b+1]; k++ {
		if !hasPrefixFold(text[i:], m.needles[k]) {
			continue
		}
		for r < len(ranges) && ranges[r][1] <= i {
			r++
		}
		if r < len(ranges) && ranges[r][0] <= i {
			m.in[k]++
		} else {
			m.out[k]++
		}
		for _, p := range m.pairsOf[k] {
			if !m.held[p] && pairAt(text, i+len(m.needles[k]), m.seconds[p]) {
				m.held[p] = true
			}
		}
	}
	return r
}

// hasPrefixFold reports whether text lower-cased (ASCII letters only)
// begins with s.
func hasPrefixFold(text []byte, s string) bool {
	if len(text) < len(s) {
		return false
	}
	for j := 0; j < len(s); j++ {
		if lowerASCII[text[j]] != s[j] {
			return false
		}
	}
	return true
}

// termNeedles are a term's needles in a matcher (-1: none): the term, its
// "y" form (a stem ending in "i": "librari", "library"), its
// abbreviations (Plan.Abbrevs).
type termNeedles struct {
	self, y int
	abbrevs []int
	empty   bool // the empty term: every text holds it (mask), as a search for it finds it at 0
}

// A termMatcher counts terms with one matcher: a term's count (count:
// the term, its "y" form, its abbreviations) and the set of terms held
// (mask), from the needles' counts of one scan.
type termMatcher struct {
	*matcher
	terms []termNeedles
}

// newTermMatcher looks for terms, their "y" forms and abbrevs, and
// checks pairs.
func newTermMatcher(terms []string, abbrevs map[string][]string, pairs [][2]string) *termMatcher {
	var find []string
	for _, t := range terms {
		find = append(find, t)
		if y, ok := yForm(t); ok {
			find = append(find, y)
		}
		find = append(find, abbrevs[t]...)
	}
	m, index := newMatcher(find, pairs)
	at := func(s string) int {
		if k, ok := index[s]; ok {
			return k
		}
		return -1
	}
	tm := &termMatcher{matcher: m, terms: make([]termNeedles, len(terms))}
	for j, t := range terms {
		tn := termNeedles{self: at(t), y: -1, empty: t == ""}
		if y, ok := yForm(t); ok {
			tn.y = at(y)
		}
		for _, a := range abbrevs[t] {
			tn.abbrevs = append(tn.abbrevs, at(a))
		}
		tm.terms[j] = tn
	}
	return tm
}

// yForm is the form a stem ending in "i" has where its word ends in "y".
func yForm(t string) (string, bool) {
	if !strings.HasSuffix(t, "i") {
		return "", false
	}
	return t[:len(t)-1] + "y", true
}

// needle is needle k's counts in the text last scanned (none for -1).
func (m *matcher) needle(k int) (out, in int) {
	if k < 0 {
		return 0, 0
	}
	return m.out[k], m.in[k]
}

// count is term j's count in the text last scanned, outside the ranges
// and inside: where the term starts a word or part, plus where its "y"
// form does, or, when more often, one of its abbreviations.
func (tm *termMatcher) count(j int) (out, in int) {
	tn := &tm.terms[j]
	out, in = tm.needle(tn.self)
	o, i := tm.needle(tn.y)
	out, in = out+o, in+i
	for _, a := range tn.abbrevs {
		if o, i := tm.needle(a); o+i > out+in {
			out, in = o, i
		}
	}
	return out, in
}

// mask is the set of the terms (the first 64) the text last scanned
// holds where a word or part starts, the term or its "y" form
// (abbreviations aside), as a bit mask.
func (tm *termMatcher) mask() uint64 {
	var mask uint64
	for j := range tm.terms[:min(len(tm.terms), 64)] {
		tn := &tm.terms[j]
		o, i := tm.needle(tn.self)
		yo, yi := tm.needle(tn.y)
		if o+i > 0 || yo+yi > 0 || tn.empty {
			mask |= 1 << j
		}
	}
	return mask
}
