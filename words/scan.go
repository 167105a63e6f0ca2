package words

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// MaxTokenLen drops longer tokens (base64 blobs, hashes): nobody searches
// for them by word.
const MaxTokenLen = 64

// maxParts is how many parts of one identifier piece Scan expects
// at most; a longer one (a blob) takes an allocation.
const maxParts = 64

// Scan calls emit with each term of text, in order, with its byte
// range, before stemming: each word lower-cased, then for a dotted word
// each piece whole, then each piece's parts when it has more than one
// (see wordTerms). The index stems each term (Stem) into its tokens.
func Scan(text []byte, emit func(start, end int, term []byte)) {
	var parts [maxParts][2]int
	for i := 0; i < len(text); {
		if n := notIdentAt(text, i); n > 0 {
			i += n
			continue
		}
		start, end := i, wordEnd(text, i)
		i = end
		if end-start > 4*MaxTokenLen {
			continue // a blob, not a word
		}
		wordTerms(text[start:end], start, &parts, emit)
	}
}

// notIdentAt is the size of the character at text[i] when it cannot be
// part of an identifier, else 0.
func notIdentAt(text []byte, i int) int {
	if c := text[i]; c < utf8.RuneSelf {
		if asciiIdent[c] {
			return 0
		}
		return 1
	}
	if r, size := utf8.DecodeRune(text[i:]); !IsIdentRune(r) {
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
			if asciiIdent[c] {
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
		if !IsIdentRune(r) {
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
// than 2 or longer than MaxTokenLen bytes are left out.
func wordTerms(word []byte, start int, parts *[maxParts][2]int, emit func(start, end int, term []byte)) {
	out := func(s, e int, term []byte) {
		if len(term) >= 2 && len(term) <= MaxTokenLen {
			emit(start+s, start+e, term)
		}
	}
	whole := LowerASCII(word)
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
		n := Parts(word[ps:pe], ps0)
		if n > len(ps0) {
			ps0 = make([][2]int, n) // a blob of many parts
			Parts(word[ps:pe], ps0)
		}
		if n > 1 {
			for _, p := range ps0[:n] {
				out(ps+p[0], ps+p[1], lowered(ps+p[0], ps+p[1]))
			}
		}
		ps = pe + 1
	}
}

// asciiIdent marks the ASCII bytes that make up identifiers.
var asciiIdent = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
	}
	return t
}()

// IsIdentByte reports whether the ASCII byte c makes up identifiers
// (letters, digits, underscore).
func IsIdentByte(c byte) bool { return c < utf8.RuneSelf && asciiIdent[c] }

// LowerASCII returns word lower-cased, without copying when it already is.
func LowerASCII(word []byte) []byte {
	for _, c := range word {
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return bytes.ToLower(word)
		}
	}
	return word
}

func IsIdentRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiIdent[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isIdentStart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return IsIdentRune(r)
}
