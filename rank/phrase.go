package rank

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalizeSpace lower-cases s and collapses its white space: the form in
// which a quoted phrase of a query is looked for in a chunk's text.
func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// HoldsPhrases reports whether text holds every phrase (each normalized
// by normalizeSpace) as normalizeSpace(text) would, without building that
// string: a phrase's space matches any run of white space, its letters
// match either case. A search checks up to a thousand chunks this way.
func HoldsPhrases(text []byte, phrases []string) bool {
	for _, p := range phrases {
		if !containsPhrase(text, p) {
			return false
		}
	}
	return true
}

// containsPhrase reports whether phrase (normalized) occurs in text as
// whole words: where the phrase starts or ends with a letter or a digit,
// the text's word or identifier part must start or end there too
// (wordEdge), so a quoted 'log' is not found in "catalog" and a quoted
// 'timeout' is in `readTimeout` and `read_timeout`.
func containsPhrase(text []byte, phrase string) bool {
	if phrase == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(phrase)
	if first < utf8.RuneSelf && isASCII(text) {
		return containsPhraseASCII(text, phrase, byte(first))
	}
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			// An ASCII byte is a rune of its own, and unicode.ToLower
			// of it is asciiLower: the same test as below, without the
			// calls, at each byte of a mostly ASCII text.
			if rune(asciiLower(c)) == first && phraseWordsAt(text, i, phrase) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.ToLower(r) == first && phraseWordsAt(text, i, phrase) {
			return true
		}
		i += size
	}
	return false
}

// phraseWordsAt reports whether text holds phrase (normalized) at i, as
// whole words (containsPhrase).
func phraseWordsAt(text []byte, i int, phrase string) bool {
	end := phraseAt(text[i:], phrase)
	if end < 0 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(phrase)
	last, _ := utf8.DecodeLastRuneInString(phrase)
	return (!wordRune(first) || wordEdge(text, i)) && (!wordRune(last) || wordEdge(text, i+end))
}

// wordRune reports whether r is a letter or a digit.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordEdge reports whether a word or an identifier part starts or ends
// at offset i of text: at either end of the text, beside a rune that is
// not a letter or a digit, between a lower-case letter and an upper-case
// one (readTimeout), or between a digit and a letter.
func wordEdge(text []byte, i int) bool {
	if i == 0 || i >= len(text) {
		return true
	}
	p, _ := utf8.DecodeLastRune(text[:i])
	c, _ := utf8.DecodeRune(text[i:])
	switch {
	case !wordRune(p) || !wordRune(c):
		return true
	case unicode.IsLower(p) && unicode.IsUpper(c):
		return true
	}
	return unicode.IsDigit(p) != unicode.IsDigit(c)
}

// containsPhraseASCII is containsPhrase for a text all ASCII and a
// phrase that starts with the ASCII byte first: each byte is a rune,
// and the runes unicode.ToLower turns into first are first and, for a
// letter, its upper case, found with bytes.IndexByte.
func containsPhraseASCII(text []byte, phrase string, first byte) bool {
	upper := first
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	nextLower, nextUpper := -1, -1 // the next of each at or after i (len(text): none)
	for i := 0; i < len(text); {
		if nextLower < i {
			nextLower = indexByteFrom(text, first, i)
		}
		if nextUpper < i {
			nextUpper = indexByteFrom(text, upper, i)
		}
		j := min(nextLower, nextUpper)
		if j == len(text) {
			return false
		}
		if phraseWordsAt(text, j, phrase) {
			return true
		}
		i = j + 1
	}
	return false
}

// indexByteFrom is the index of the first c in text at or after from,
// or len(text).
func indexByteFrom(text []byte, c byte, from int) int {
	if i := bytes.IndexByte(text[from:], c); i >= 0 {
		return from + i
	}
	return len(text)
}

// isASCII reports whether every byte of text is below utf8.RuneSelf.
func isASCII(text []byte) bool {
	i := 0
	for ; i+8 <= len(text); i += 8 {
		if binary.LittleEndian.Uint64(text[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower is unicode.ToLower for an ASCII byte.
func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// phraseAt is the length of the text at text's start that matches
// phrase (normalized), or -1 when it does not start with the phrase.
func phraseAt(text []byte, phrase string) int {
	i := 0
	for j := 0; j < len(phrase); {
		pr, psize := utf8.DecodeRuneInString(phrase[j:])
		j += psize
		if pr == ' ' {
			// One or more white space characters.
			n := 0
			for i < len(text) {
				r, size := utf8.DecodeRune(text[i:])
				if !unicode.IsSpace(r) {
					break
				}
				i += size
				n++
			}
			if n == 0 {
				return -1
			}
			continue
		}
		if i >= len(text) {
			return -1
		}
		r, size := utf8.DecodeRune(text[i:])
		if unicode.ToLower(r) != pr {
			return -1
		}
		i += size
	}
	return i
}

// quoteFactor is 1 + (boost-1) × the share of the phrases text holds: a
// message or a phrase the user quotes is text they saw, and the code
// that holds it is where it comes from.
func quoteFactor(text []byte, phrases []string, boost float64) float64 {
	held := 0
	for _, p := range phrases {
		if containsPhrase(text, p) {
			held++
		}
	}
	return 1 + (boost-1)*float64(held)/float64(len(phrases))
}
