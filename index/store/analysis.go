package store

import (
	"github.com/askls/askls/words"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// codeAnalyzerName is the name under which the code analyzer is registered
// with bleve, so that a persisted mapping can refer to it.
const codeAnalyzerName = "askls-code"

func init() {
	registry.RegisterAnalyzer(codeAnalyzerName, func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
		return codeAnalyzer{}, nil
	})
}

// codeAnalyzer turns source text into lower-case search terms. An identifier
// is indexed whole and also split into its parts: "ServeHTTP" gives
// servehttp, serve, http; "max_file_bytes" gives max_file_bytes, max, file,
// bytes; "http.ResponseWriter" gives http.responsewriter, http,
// responsewriter, response, writer. Parts follow the whole at consecutive
// positions, so a phrase query analysed the same way matches.
// Single-character tokens are dropped.
type codeAnalyzer struct{}

func (codeAnalyzer) Analyze(text []byte) analysis.TokenStream {
	return AnalyzeCode(text, nil)
}

// AnalyzeCode appends the tokens of text to ts.
func AnalyzeCode(text []byte, ts analysis.TokenStream) analysis.TokenStream {
	pos := 0
	// Tokens are carved from slabs: one allocation per few hundred tokens.
	var slab []analysis.Token
	if ts == nil {
		ts = make(analysis.TokenStream, 0, len(text)/6+4)
	}
	words.Scan(text, func(start, end int, term []byte) {
		term = words.Stem(term)
		pos++
		if len(slab) == cap(slab) {
			slab = make([]analysis.Token, 0, len(text)/8+16)
		}
		slab = append(slab, analysis.Token{Start: start, End: end, Term: term, Position: pos, Type: analysis.AlphaNumeric})
		ts = append(ts, &slab[len(slab)-1])
	})
	return ts
}
