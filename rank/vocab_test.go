package rank

import "testing"

// Every word code writes for a plain word is a term as the index
// analyses it, or it could never match; every word of the table is
// kept, and its inflections meet it.
func TestVocabIsAnalysed(t *testing.T) {
	if len(vocab) != 32 {
		t.Errorf("vocab has %d terms, want 32 (one per word of the table)", len(vocab))
	}
	for _, w := range []string{"connections", "Connection", "configurations", "locks", "directories", "initialization"} {
		if toks := Terms(w); len(toks) != 1 || len(vocab[toks[0]]) == 0 {
			t.Errorf("%q has no entry in vocab (analysed as %v)", w, toks)
		}
	}
	for word, alts := range vocab {
		for _, a := range alts {
			toks := Terms(a)
			if len(toks) != 1 || toks[0] != a {
				t.Errorf("vocab[%q]: %q is analysed as %v", word, a, toks)
			}
		}
	}
}
