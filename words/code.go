package words

import (
	"strings"
	"unicode/utf8"
)

// CutContraction drops the tail of a contraction or a possessive
// ("doesn't", "I've", "Go's"): it is never a search term, and the heads
// of negative contractions ("doesn") are stop words. An apostrophe
// followed by anything else (config['timeout']) is left alone.
func CutContraction(w string) string {
	i := strings.IndexAny(w, "'\u2019")
	if i <= 0 {
		return w
	}
	_, n := utf8.DecodeRuneInString(w[i:])
	switch strings.ToLower(strings.TrimRight(w[i+n:], ".:;!")) {
	case "s", "t", "ve", "ll", "re", "d", "m":
		return w[:i]
	}
	return w
}

// IsCode reports whether a word is written as code: a capital after a
// lower-case letter or a digit (maxLen, ServeHTTP, utf8Len), a capital
// that starts a lower-case part after a run of capitals (HTTPServer), an
// underscore or a dot inside it (max_len, errors.Is), or a digit (utf8,
// AVX2). A capitalised or all-capital word (Server, HTTP, URLs) and a
// word only wrapped in underscores (__init__, _private) are English; a
// word that starts with a digit (2048, 64KB, 1.5s) is a value: no
// identifier starts with one.
func IsCode(w string) bool {
	w = strings.Trim(w, "_.:;!'`")
	if w != "" && isDigit(w[0]) {
		return false // a number or a quantity (2048, 250ms, 64KB): a value, not a name
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_' || isDigit(c):
			return true
		case c == '.' && i > 0 && i < len(w)-1:
			return true
		case isUpper(c) && i > 0 && (isLower(w[i-1]) || isDigit(w[i-1])):
			return true
		case isUpper(c) && i > 0 && isUpper(w[i-1]) && i+2 < len(w) && isLower(w[i+1]) && isLower(w[i+2]):
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
