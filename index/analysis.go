package index

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// codeAnalyzerName is the name under which the code analyzer is registered
// with bleve, so that a persisted mapping can refer to it.
const codeAnalyzerName = "askls-code"

// maxTokenLen drops longer tokens (base64 blobs, hashes): nobody searches
// for them by word.
const maxTokenLen = 64

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
	return analyzeCode(text, nil)
}

// analyzeCode appends the tokens of text to ts.
func analyzeCode(text []byte, ts analysis.TokenStream) analysis.TokenStream {
	pos := 0
	// Tokens are carved from slabs: one allocation per few hundred tokens.
	var slab []analysis.Token
	emit := func(start, end int, term []byte) {
		if len(term) < 2 || len(term) > maxTokenLen {
			return
		}
		pos++
		if len(slab) == cap(slab) {
			slab = make([]analysis.Token, 0, len(text)/8+16)
		}
		term = stem(term)
		slab = append(slab, analysis.Token{Start: start, End: end, Term: term, Position: pos, Type: analysis.AlphaNumeric})
		ts = append(ts, &slab[len(slab)-1])
	}
	if ts == nil {
		ts = make(analysis.TokenStream, 0, len(text)/6+4)
	}
	i := 0
	for i < len(text) {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(text[i:])
		}
		if !isIdentRune(r) {
			i += size
			continue
		}
		// A word: identifier characters, with single dots joining words.
		start := i
		end := i
		j := i
		for j < len(text) {
			r, size := rune(text[j]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(text[j:])
			}
			if isIdentRune(r) {
				j += size
				end = j
				continue
			}
			if r == '.' && j+1 < len(text) && isIdentStart(text[j+1:]) && j > start {
				j++
				continue
			}
			break
		}
		i = end
		if end-start > 4*maxTokenLen {
			continue // a blob, not a word
		}
		word := text[start:end]
		whole := lowerASCII(word)
		emit(start, end, whole)
		// Dotted words: each piece whole too; then each piece's parts.
		lowered := func(ps, pe int) []byte {
			if len(whole) == len(word) {
				return whole[ps:pe]
			}
			return bytes.ToLower(word[ps:pe])
		}
		pieces := bytes.Count(word, []byte{'.'}) + 1
		ps := 0
		for k := 0; k < pieces; k++ {
			pe := len(word)
			if k < pieces-1 {
				pe = ps + bytes.IndexByte(word[ps:], '.')
			}
			piece := word[ps:pe]
			if pieces > 1 {
				emit(start+ps, start+pe, lowered(ps, pe))
			}
			parts := 0
			splitWord(piece, func(int, int) { parts++ })
			if parts > 1 {
				base := ps
				splitWord(piece, func(a, b int) { emit(start+base+a, start+base+b, lowered(base+a, base+b)) })
			}
			ps = pe + 1
		}
	}
	return ts
}

// stem reduces a plain English word to its Porter stem ("compares",
// "compared" → "compar"), so that questions match code comments and
// identifier parts in other forms. Only lower-case ASCII words of 4 to 20
// letters are stemmed; identifiers with digits or underscores, and the
// whole form of a compound identifier, stay as they are (the caller
// passes them through whole, and they rarely end in a suffix).
func stem(term []byte) []byte {
	if len(term) < 4 || len(term) > 20 {
		return term
	}
	for _, c := range term {
		if c < 'a' || c > 'z' {
			return term
		}
	}
	switch term[len(term)-1] {
	case 's', 'd', 'g', 'y', 'r', 'n', 'e', 'l', 't':
	default:
		return term
	}
	out := string(porterstemmer.StemWithoutLowerCasing([]rune(string(term))))
	if out == string(term) {
		return term
	}
	return []byte(out)
}

// lowerASCII returns word lower-cased, without copying when it already is.
func lowerASCII(word []byte) []byte {
	for _, c := range word {
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return bytes.ToLower(word)
		}
	}
	return word
}

func isIdentRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isIdentStart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return isIdentRune(r)
}

// splitWord calls f with the byte range of each part of word: pieces
// between dots and underscores, further split at lower→Upper changes
// (fooBar), at the last capital of a capital run followed by a lower-case
// letter (HTTPServer → HTTP, Server), and between letters and digits.
func splitWord(word []byte, f func(start, end int)) {
	type class int
	const (
		sep class = iota
		lower
		upper
		digit
	)
	classOf := func(r rune) class {
		switch {
		case r == '_' || r == '.':
			return sep
		case unicode.IsDigit(r):
			return digit
		case unicode.IsUpper(r):
			return upper
		default:
			return lower
		}
	}
	start := -1
	var prev class = sep
	for i := 0; i < len(word); {
		r, size := rune(word[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(word[i:])
		}
		c := classOf(r)
		if c == sep {
			if start >= 0 {
				f(start, i)
				start = -1
			}
			prev = sep
			i += size
			continue
		}
		if start < 0 {
			start = i
		} else {
			boundary := false
			switch {
			case prev == lower && c == upper:
				boundary = true
			case (prev == digit) != (c == digit):
				boundary = true
			case prev == upper && c == lower && i-start > 1:
				// HTTPServer: the S starts the new part.
				ps := lastRuneStart(word[:i])
				if ps > start {
					f(start, ps)
					start = ps
				}
			}
			if boundary {
				f(start, i)
				start = i
			}
		}
		prev = c
		i += size
	}
	if start >= 0 {
		f(start, len(word))
	}
}

func lastRuneStart(b []byte) int {
	_, size := utf8.DecodeLastRune(b)
	return len(b) - size
}

// keywordAnalyzer indexes the whole value as one term.
type keywordAnalyzer struct{}

func (keywordAnalyzer) Analyze(text []byte) analysis.TokenStream {
	return analysis.TokenStream{{Start: 0, End: len(text), Term: text, Position: 1, Type: analysis.AlphaNumeric}}
}
