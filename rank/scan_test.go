package rank

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/index/chunk"
)

// The reference: the rerank's counting as it was before one pass
// (matcher.scan) did it, one bytes.Index search per string and per
// question. scan must give what these give, on any text.

// refTexts are a chunk's text and path as the coverer held them, as
// written and with its ASCII letters lower-cased.
func refTexts(text []byte, path string) (orig, low []byte) {
	orig = append(append(append([]byte(nil), text...), '\n'), path...)
	low = bytes.Clone(orig)
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	return orig, low
}

func refOccurrences(orig, low []byte, t string, ranges [][2]int, atStart bool) (out, in int) {
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

func refCountTerm(orig, low []byte, t string, abbrevs []string, ranges [][2]int) (out, in int) {
	out, in = refOccurrences(orig, low, t, ranges, true)
	if strings.HasSuffix(t, "i") {
		o, i := refOccurrences(orig, low, t[:len(t)-1]+"y", ranges, true)
		out, in = out+o, in+i
	}
	for _, a := range abbrevs {
		if o, i := refOccurrences(orig, low, a, ranges, true); o+i > out+in {
			out, in = o, i
		}
	}
	return out, in
}

func refWordStarts(orig []byte) int {
	isWordByte := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	n := 0
	for i := range orig {
		if isWordByte(orig[i]) && (i == 0 || partStart(orig[i-1], orig[i])) {
			n++
		}
	}
	return n
}

// refWordStartsOf counts where t occurs in low at the start of a word or
// an identifier part of orig, stopping at limit.
func refWordStartsOf(orig, low []byte, t string, limit int) int {
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

func refHolds(orig, low []byte, terms []string) uint64 {
	has := func(t string) bool { return refWordStartsOf(orig, low, t, 1) > 0 }
	var m uint64
	for i, t := range terms[:min(len(terms), 64)] {
		if has(t) || (strings.HasSuffix(t, "i") && has(t[:len(t)-1]+"y")) {
			m |= 1 << i
		}
	}
	return m
}

func refHoldsPair(orig, low []byte, first, second string) bool {
	a, b := []byte(first), []byte(second)
	for off := 0; ; {
		i := bytes.Index(low[off:], a)
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i > 0 && !partStart(orig[i-1], orig[i]) {
			continue
		}
		j := i + len(a)
		for j < len(orig) && isLowerOrDigit(orig[j]) {
			j++
		}
		if j < len(orig) && isUpperASCII(orig[j]) {
			if bytes.HasPrefix(low[j:], b) {
				return true
			}
			continue
		}
		gap := 0
		for j < len(orig) && gap <= maxPairGap && isPairSeparator(orig[j]) {
			j++
			gap++
		}
		if gap == 0 || gap > maxPairGap || j >= len(orig) {
			continue
		}
		if bytes.HasPrefix(low[j:], b) {
			return true
		}
	}
}

func refPairShare(orig, low []byte, pairs [][2]string) float64 {
	if len(pairs) == 0 {
		return 0
	}
	n := 0
	for _, pr := range pairs {
		if refHoldsPair(orig, low, pr[0], pr[1]) {
			n++
		}
	}
	return float64(n) / float64(max(len(pairs), minPairs))
}

// refCount is refCountTerm without abbreviations or ranges.
func refCount(orig, low []byte, t string) int {
	n, _ := refCountTerm(orig, low, t, nil, nil)
	return n
}

// refNameCount is refCountTerm on the names of units; not ok where it
// panicked (a name lower-cased into more bytes, a match past its end).
func refNameCount(names, low []byte, t string, abbrevs []string) (n int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	n, _ = refCountTerm(names, low, t, abbrevs, nil)
	return n, true
}

// checkScan compares one pass over text and path with the reference:
// every term's counts, the length, the mask, the pairs, the names.
func checkScan(t *testing.T, c Cand, terms []string, abbrevs map[string][]string, pairs [][2]string) {
	t.Helper()
	orig, low := refTexts(c.Text, c.Path)
	comments := commentLines(c.Text, c.Language)
	cv := coverer{marking: true}
	cv.add([]byte("a chunk before"), "x.go")
	ch := cv.add(c.Text, c.Path)
	if !bytes.Equal(cv.text(ch), orig) {
		t.Fatalf("coverer text %.60q, want %.60q", cv.text(ch), orig)
	}
	tm := newTermMatcher(terms, abbrevs, pairs)
	if n, want := tm.scan(cv.text(ch), comments, cv.marksOf(ch)), refWordStarts(orig); n != want {
		t.Errorf("scan(%.60q): length %d, want %d", orig, n, want)
	}
	for j, term := range terms {
		o, i := tm.count(j)
		wo, wi := refCountTerm(orig, low, term, abbrevs[term], comments)
		if o != wo || i != wi {
			t.Errorf("scan(%.60q): %.60q (abbrevs %.60q) counted %d, %d; want %d, %d", orig, term, abbrevs[term], o, i, wo, wi)
		}
	}
	if m, want := tm.mask(), refHolds(orig, low, terms); m != want {
		t.Errorf("scan(%.60q) %.60q: mask %b, want %b", orig, terms, m, want)
	}
	if s, want := tm.pairShare(), refPairShare(orig, low, pairs); s != want {
		t.Errorf("scan(%.60q) %.60q: pair share %v, want %v", orig, pairs, s, want)
	}
	// The second pass, at the marks of the first, counts as a scan.
	fm := newTermMatcher(terms, nil, nil)
	if fm.marked {
		fm.scanMarked(cv.text(ch), cv.marksOf(ch))
	} else {
		fm.scan(cv.text(ch), nil, nil)
	}
	for j, term := range terms {
		if o, _ := fm.count(j); o != refCount(orig, low, term) {
			t.Errorf("scanMarked(%.60q): %.60q counted %d, want %d", orig, term, o, refCount(orig, low, term))
		}
	}
	if m, want := fm.mask(), refHolds(orig, low, terms); m != want {
		t.Errorf("scanMarked(%.60q) %.60q: mask %b, want %b", orig, terms, m, want)
	}
	ones := make([]float64, len(terms))
	for i := range ones {
		ones[i] = 1
	}
	for range 2 { // the second with the matcher Covers keeps
		if got, want := Covers(c.Text, c.Path, terms), maskCoverage(refHolds(orig, low, terms), ones); got != want {
			t.Errorf("Covers(%.60q, %q): %v, want %v", orig, terms, got, want)
		}
	}
	names := symbolNames(nil, &c)
	got := make([]float64, len(terms))
	tm.nameCounts(names, got)
	lowNames := bytes.ToLower(names) // as the names were lower-cased
	for j, term := range terms {
		want, ok := refNameCount(names, lowNames, term, abbrevs[term])
		if ok && got[j] != float64(want) {
			t.Errorf("names %.60q: %.60q counted %v, want %d", names, term, got[j], want)
		}
	}
}

// randomCase draws a text of the bytes the rules tell apart (cases,
// digits, separators, comment markers, non-ASCII) and terms, "y"
// forms, abbreviations and pairs that often occur in it.
func randomCase(r *rand.Rand) (Cand, []string, map[string][]string, [][2]string) {
	const alphabet = "aAbByYiIcC01 _-./*#\n\t\"(){}\xc3\xa9\x80\xff"
	words := []string{"librari", "library", "Libraries", "readerWait", "compar", "i", "y", "a1b", "// ", "/*", "*/", "parseParams", "ÿÉé"}
	var text []byte
	for range r.IntN(200) {
		if r.IntN(4) == 0 {
			text = append(text, words[r.IntN(len(words))]...)
		} else {
			text = append(text, alphabet[r.IntN(len(alphabet))])
		}
	}
	draw := func() string {
		if len(text) == 0 || r.IntN(3) == 0 {
			return strings.ToLower(words[r.IntN(len(words))])
		}
		s := r.IntN(len(text))
		e := min(len(text), s+1+r.IntN(6))
		t := strings.ToLower(string(text[s:e]))
		if r.IntN(3) == 0 {
			t += "i"
		}
		return t
	}
	var terms []string
	abbrevs := map[string][]string{}
	for range 1 + r.IntN(8) {
		t := draw()
		terms = append(terms, t)
		if r.IntN(3) == 0 {
			abbrevs[t] = append(abbrevs[t], draw())
		}
	}
	var pairs [][2]string
	for range r.IntN(4) {
		pairs = append(pairs, [2]string{terms[r.IntN(len(terms))], draw()})
	}
	c := Cand{Text: text, Path: "p/" + draw() + ".go", Language: []string{"go", "python", "markdown"}[r.IntN(3)]}
	c.Meta.Symbol = draw()
	for range r.IntN(3) {
		c.Meta.Parts = append(c.Meta.Parts, chunk.Part{Symbol: draw()})
	}
	return c, terms, abbrevs, pairs
}

func TestScanIsTheReferenceOnRandomTexts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		c, terms, abbrevs, pairs := randomCase(r)
		checkScan(t, c, terms, abbrevs, pairs)
		if t.Failed() {
			return
		}
	}
}

// The Go files of this package and of words, in pieces of 1 to 60
// lines, each with the terms of one of its lines and of a line of
// another piece, their pairs and abbreviations of them.
func TestScanIsTheReferenceOnRealTexts(t *testing.T) {
	var files []string
	for _, dir := range []string{".", "../words", "../index/chunk"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var prev []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for start := 0; start < len(lines); {
			end := min(len(lines), start+1+r.IntN(60))
			text := bytes.Join(lines[start:end], nil)
			terms := append(Terms(string(lines[start+r.IntN(end-start)])), prev...)
			terms = terms[:min(len(terms), 48)]
			prev = Terms(string(lines[start+r.IntN(end-start)]))
			abbrevs := map[string][]string{}
			var pairs [][2]string
			for j, term := range terms {
				if len(term) > 3 && j%2 == 0 {
					abbrevs[term] = []string{term[:3]}
				}
				if j > 0 {
					pairs = append(pairs, [2]string{terms[j-1], term})
				}
			}
			c := Cand{Text: text, Path: f, Language: "go"}
			c.Meta.Symbol = "chunk" + filepath.Base(f)
			checkScan(t, c, terms, abbrevs, pairs)
			if t.Failed() {
				return
			}
			start = end
		}
	}
}

// An empty term is held by every text, as a search for it found it at
// 0 (it is never counted: the search for its count never ended).
func TestEmptyTermIsHeld(t *testing.T) {
	for _, text := range []string{"", "x", "Library of readers"} {
		orig, low := refTexts([]byte(text), "p.go")
		terms := []string{"", "librari", "zzz"}
		if got, want := Covers([]byte(text), "p.go", terms), maskCoverage(refHolds(orig, low, terms), []float64{1, 1, 1}); got != want {
			t.Errorf("Covers(%q, %q) = %v, want %v", text, terms, got, want)
		}
	}
}

// FuzzScan: one pass counts as the reference does, on any text and
// terms.
func FuzzScan(f *testing.F) {
	f.Add([]byte("// ConstantTimeCompare compares.\nfunc x() {}"), "compar", "const", "time", "compar")
	f.Add([]byte("a library of Libraries, readerWait"), "librari", "lib", "reader", "wait")
	f.Fuzz(func(t *testing.T, text []byte, term, abbrev, first, second string) {
		terms := []string{term, first, second}
		abbrevs := map[string][]string{term: {abbrev}}
		for _, s := range append(terms, abbrev) {
			if s == "" {
				return // the reference never ends on the empty string
			}
		}
		c := Cand{Text: text, Path: "x.go", Language: "go"}
		c.Meta.Symbol = string(text[:min(len(text), 20)])
		checkScan(t, c, terms, abbrevs, [][2]string{{first, second}})
	})
}
