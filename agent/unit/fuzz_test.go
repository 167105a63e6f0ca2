package unit

import (
	"strings"
	"testing"
)

// FuzzQuestionTerms: any question gives at most 64 terms (the bit set
// lineTerms keeps them in), each a non-empty lower-case word with a
// stem, once each, and no panic.
func FuzzQuestionTerms(f *testing.F) {
	for _, s := range []string{
		"Why do 2048-bit keys from the KeyGen helper print \"v2ok\" when Brotli and AVX2 are off?",
		"author__name__icontains='x' :userId blog/post_detail.html", "‘quoted’ “words”", "\xff\xfe",
		strings.Repeat("maxTokenSize ", 100), "", "a.b.c", "1h2m3.5s 64KB",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		terms := QuestionTerms(q)
		if len(terms) > 64 {
			t.Fatalf("QuestionTerms(%q): %d terms", q, len(terms))
		}
		seen := map[string]bool{}
		for _, tm := range terms {
			if tm.Word == "" || tm.Stem == "" || seen[tm.Word] || tm.Word != strings.ToLower(tm.Word) {
				t.Errorf("QuestionTerms(%q): term %+v", q, tm)
			}
			seen[tm.Word] = true
		}
	})
}
