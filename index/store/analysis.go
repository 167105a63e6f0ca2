package store

import (
	"bytes"
	"sync"
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
	CodeTerms(text, func(start, end int, term []byte) {
		term = Stem(term)
		pos++
		if len(slab) == cap(slab) {
			slab = make([]analysis.Token, 0, len(text)/8+16)
		}
		slab = append(slab, analysis.Token{Start: start, End: end, Term: term, Position: pos, Type: analysis.AlphaNumeric})
		ts = append(ts, &slab[len(slab)-1])
	})
	return ts
}

// maxParts is how many parts of one identifier piece CodeTerms expects
// at most; a longer one (a blob) takes an allocation.
const maxParts = 64

// CodeTerms calls emit with each term of text, in order, with its byte
// range, before stemming: the terms AnalyzeCode turns into tokens (after
// stem), and that the indexer counts directly (codeField), stemming each
// distinct term once.
func CodeTerms(text []byte, emit func(start, end int, term []byte)) {
	var parts [maxParts][2]int
	for i := 0; i < len(text); {
		if n := notIdentAt(text, i); n > 0 {
			i += n
			continue
		}
		start, end := i, wordEnd(text, i)
		i = end
		if end-start > 4*maxTokenLen {
			continue // a blob, not a word
		}
		wordTerms(text[start:end], start, &parts, emit)
	}
}

// notIdentAt is the size of the character at text[i] when it cannot be
// part of an identifier, else 0.
func notIdentAt(text []byte, i int) int {
	if c := text[i]; c < utf8.RuneSelf {
		if ASCIIIdent[c] {
			return 0
		}
		return 1
	}
	if r, size := utf8.DecodeRune(text[i:]); !isIdentRune(r) {
		return size
	}
	return 0
}

// wordEnd is the end of the word starting at text[start]: identifier
// characters, with single dots joining words (a trailing dot is not part
// of it).
func wordEnd(text []byte, start int) int {
	end := start
	for j := start; j < len(text); {
		c := text[j]
		if c < utf8.RuneSelf {
			if ASCIIIdent[c] {
				j++
				end = j
				continue
			}
			if c == '.' && j+1 < len(text) && isIdentStart(text[j+1:]) && j > start {
				j++
				continue
			}
			break
		}
		r, size := utf8.DecodeRune(text[j:])
		if !isIdentRune(r) {
			break
		}
		j += size
		end = j
	}
	return end
}

// wordTerms emits the terms of one word found at offset start: the word
// lowered, then for a dotted word each piece whole, and each piece's parts
// (camelCase, snake_case, digits) when it has more than one. Terms shorter
// than 2 or longer than maxTokenLen bytes are left out.
func wordTerms(word []byte, start int, parts *[maxParts][2]int, emit func(start, end int, term []byte)) {
	out := func(s, e int, term []byte) {
		if len(term) >= 2 && len(term) <= maxTokenLen {
			emit(start+s, start+e, term)
		}
	}
	whole := lowerASCII(word)
	out(0, len(word), whole)
	lowered := func(ps, pe int) []byte {
		if len(whole) == len(word) {
			return whole[ps:pe]
		}
		return bytes.ToLower(word[ps:pe])
	}
	dotted := bytes.IndexByte(word, '.') >= 0
	for ps := 0; ps <= len(word); {
		pe := len(word)
		if k := bytes.IndexByte(word[ps:], '.'); k >= 0 {
			pe = ps + k
		}
		if dotted {
			out(ps, pe, lowered(ps, pe))
		}
		ps0 := parts[:]
		n := splitWord(word[ps:pe], ps0)
		if n > len(ps0) {
			ps0 = make([][2]int, n) // a blob of many parts
			splitWord(word[ps:pe], ps0)
		}
		if n > 1 {
			for _, p := range ps0[:n] {
				out(ps+p[0], ps+p[1], lowered(ps+p[0], ps+p[1]))
			}
		}
		ps = pe + 1
	}
}

// ASCIIIdent marks the ASCII bytes that make up identifiers.
var ASCIIIdent = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
	}
	return t
}()

// stem reduces a plain English word to its Porter stem ("compares",
// "compared" → "compar"), so that questions match code comments and
// identifier parts in other forms. Only lower-case ASCII words of 4 to 20
// letters are stemmed; identifiers with digits or underscores, and the
// whole form of a compound identifier, stay as they are (the caller
// passes them through whole, and they rarely end in a suffix).
func Stem(term []byte) []byte {
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
	if out, ok := stems.get(term); ok {
		if out == nil {
			return term
		}
		return out
	}
	out := []byte(string(porterstemmer.StemWithoutLowerCasing([]rune(string(term)))))
	if bytes.Equal(out, term) {
		out = nil
	}
	stems.put(term, out)
	if out == nil {
		return term
	}
	return out
}

// stemCache remembers the stems of words seen (nil: the word is its own
// stem): a tree's vocabulary is small and its words repeat, and the
// stemmer allocates. It stops growing at stemCacheMax words. Safe for
// concurrent use.
type stemCache struct {
	mu sync.RWMutex
	m  map[string][]byte
}

const stemCacheMax = 1 << 17

var stems = stemCache{m: map[string][]byte{}}

func (c *stemCache) get(word []byte) ([]byte, bool) {
	c.mu.RLock()
	out, ok := c.m[string(word)]
	c.mu.RUnlock()
	return out, ok
}

func (c *stemCache) put(word, out []byte) {
	c.mu.Lock()
	if len(c.m) < stemCacheMax {
		c.m[string(word)] = out
	}
	c.mu.Unlock()
}

// reset empties the cache. After a bulk load its entries, made one at a
// time among the load's garbage, keep much of the heap's pages in use
// (about 35 MB of heap after a first build of GOROOT/src); emptied, it
// refills from the words later edits and queries use.
func (c *stemCache) reset() {
	c.mu.Lock()
	c.m = map[string][]byte{}
	c.mu.Unlock()
}

// ResetStems empties the cache of stems (see stemCache.reset).
func ResetStems() { stems.reset() }

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
		return ASCIIIdent[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isIdentStart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return isIdentRune(r)
}

// splitWord writes the byte range of each part of word into parts and
// returns how many there are (those beyond len(parts) are counted, not
// written): pieces between dots and
// underscores, further split at lower→Upper changes (fooBar), at the last
// capital of a capital run followed by a lower-case letter (HTTPServer →
// HTTP, Server), and between letters and digits.
func splitWord(word []byte, parts [][2]int) int {
	n := 0
	add := func(a, b int) {
		if n < len(parts) {
			parts[n] = [2]int{a, b}
		}
		n++
	}
	start := -1
	prev := classSep
	for i := 0; i < len(word); {
		r, size := rune(word[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(word[i:])
		}
		c := classOf(r)
		if c == classSep {
			if start >= 0 {
				add(start, i)
				start = -1
			}
			prev = classSep
			i += size
			continue
		}
		if start < 0 {
			start = i
		} else {
			boundary := false
			switch {
			case prev == classLower && c == classUpper:
				boundary = true
			case (prev == classDigit) != (c == classDigit):
				boundary = true
			case prev == classUpper && c == classLower && i-start > 1:
				// HTTPServer: the S starts the new part.
				ps := lastRuneStart(word[:i])
				if ps > start {
					add(start, ps)
					start = ps
				}
			}
			if boundary {
				add(start, i)
				start = i
			}
		}
		prev = c
		i += size
	}
	if start >= 0 {
		add(start, len(word))
	}
	return n
}

// charClass is what splitWord needs to know of a character.
type charClass uint8

const (
	classSep charClass = iota
	classLower
	classUpper
	classDigit
)

func classOf(r rune) charClass {
	if r < utf8.RuneSelf {
		switch {
		case r == '_' || r == '.':
			return classSep
		case '0' <= r && r <= '9':
			return classDigit
		case 'A' <= r && r <= 'Z':
			return classUpper
		}
		return classLower
	}
	switch {
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsUpper(r):
		return classUpper
	}
	return classLower
}

func lastRuneStart(b []byte) int {
	_, size := utf8.DecodeLastRune(b)
	return len(b) - size
}
