package rank

import "github.com/askls/askls/words"

// Terms returns the terms of text as the index's analyser gives them
// (index/store.AnalyzeCode): words.Scan's terms, each stemmed, in order.
// A query's words are analysed this way so that they meet the indexed
// terms.
func Terms(text string) []string {
	var out []string
	words.Scan([]byte(text), func(_, _ int, term []byte) {
		out = append(out, string(words.Stem(term)))
	})
	return out
}
