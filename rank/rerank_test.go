package rank

import "testing"

func TestCoverage(t *testing.T) {
	t.Parallel()
	text := []byte("// ConstantTimeCompare returns 1 if the two slices have equal contents.\nfunc ConstantTimeCompare(x, y []byte) int {")
	ones := []float64{1, 1, 1, 1}
	cases := []struct {
		terms []string
		want  float64
	}{
		{[]string{"compar", "slice", "two", "leak"}, 0.75},   // stems match word starts and identifier parts
		{[]string{"run", "ten", "ant", "leak"}, 0},           // inside a word ("returns", "contents", "Constant") does not count
		{[]string{"subtl", "constant", "time", "xyz"}, 0.75}, // the path counts
		{[]string{"librari", "equal", "byte", "int"}, 0.75},  // "librari" would need "library"
	}
	for _, c := range cases {
		if got := coverageOf(text, "crypto/subtle/constant_time.go", c.terms, ones); got != c.want {
			t.Errorf("coverage(%v) = %v, want %v", c.terms, got, c.want)
		}
	}
	if got := coverageOf([]byte("a library of helpers"), "x.go", []string{"librari"}, []float64{1}); got != 1 {
		t.Errorf("stem ending in i: coverage = %v, want 1", got)
	}
	if got := coverageOf(text, "x.go", []string{"compar", "leak"}, []float64{3, 1}); got != 0.75 {
		t.Errorf("weighted coverage = %v, want 0.75", got)
	}
}

// coverageOf is the coverage of one chunk.
func coverageOf(text []byte, path string, terms []string, weights []float64) float64 {
	var cv coverer
	return cv.coverage(cv.add(text, path), newTermMatcher(terms, nil, nil), weights)
}

// A term every reranked chunk holds weighs less in coverage than one few
// hold: of two chunks holding one term each, the one with the rare term
// covers more of the question.
func TestPoolIDFWeighsRareTermsMore(t *testing.T) {
	t.Parallel()
	// Terms: 0 "request" (all four chunks), 1 "retry" (chunk 0 only).
	masks := []uint64{0b10, 0b01, 0b01, 0b01}
	w := poolIDF(masks, 2)
	if !(w[1] > w[0]) {
		t.Fatalf("weights = %v, want the rare term heavier", w)
	}
	if rare, common := maskCoverage(0b10, w), maskCoverage(0b01, w); !(rare > common) {
		t.Errorf("coverage of the rare term %.3f, of the common one %.3f; want the rare one higher", rare, common)
	}
	if got := maskCoverage(0b11, w); got != 1 {
		t.Errorf("coverage of both terms = %v, want 1", got)
	}
}
