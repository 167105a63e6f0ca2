package unit

import "testing"

// Which words of a question are names the evidence must hold (Term.Name):
// code, capitals, letters with digits, a capital inside a sentence; not
// a quoted example value and not a number or a quantity.
func TestQuestionTermsNames(t *testing.T) {
	terms := QuestionTerms(`Why do 2048-bit keys from the KeyGen helper print "v2ok" when Brotli and AVX2 are off, or a 1024KB buffer is full?`)
	names := map[string]bool{}
	for _, tm := range terms {
		names[tm.Word] = tm.Name
	}
	for w, want := range map[string]bool{
		"2048": false, "bit": false, "keys": false, // a number is a value
		"keygen": true, "key": true, "gen": true, // written as code
		"v2ok": false, "ok": false, // inside quotes: an example
		"brotli": true, "avx2": true, "avx": true,
		"1024": false, // a quantity is a value too
	} {
		got, ok := names[w]
		if !ok {
			t.Errorf("no term %q in %v", w, terms)
			continue
		}
		if got != want {
			t.Errorf("term %q: Name = %v, want %v", w, got, want)
		}
	}
	if names["kb"] {
		t.Error(`"kb" of 1024KB is a name`)
	}
}
