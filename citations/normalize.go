package citations

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// lookalikeBrackets are characters a model may write for '[' and ']'. They
// are replaced in the text as it comes in (partialLookalike holds back the
// start of one cut by a Write).
var lookalikeBrackets = strings.NewReplacer("［", "[", "］", "]", "【", "[", "】", "]", "〔", "[", "〕", "]")

// partialLookalike returns how many bytes at the end of s may be the
// start of a lookalike bracket (held back until the next Write).
func partialLookalike(s string) int {
	for n := 2; n >= 1; n-- {
		if len(s) < n {
			continue
		}
		tail := s[len(s)-n:]
		for _, l := range []string{"［", "］", "【", "】", "〔", "〕"} {
			if strings.HasPrefix(l, tail) {
				return n
			}
		}
	}
	return 0
}

// normalizeMarker is the text of a marker's body as it reads: invisible
// characters removed (zero-width spaces and joiners U+200B-U+200D, the
// word joiner U+2060, the byte order mark U+FEFF, the other format
// characters and variation selectors), Unicode NFKC applied (fullwidth
// "７" and mathematical "𝟕" become "7", "，" a comma, no-break spaces a
// space), combining marks removed, and the digits of other scripts
// (Arabic-Indic "٧", Devanagari "७") made ASCII. "[7\u200b]", "[７]" and
// "[٧]" all read as "[7]".
func normalizeMarker(body string) string {
	if isASCII(body) {
		return body
	}
	visible := strings.Map(func(c rune) rune {
		if invisible(c) {
			return -1
		}
		return c
	}, body)
	var b strings.Builder
	for _, c := range norm.NFKC.String(visible) {
		switch {
		case invisible(c) || unicode.In(c, unicode.Mn, unicode.Me):
		case c >= utf8.RuneSelf && unicode.IsDigit(c):
			b.WriteByte(byte('0' + digitValue(c)))
		case c >= utf8.RuneSelf && unicode.IsSpace(c):
			b.WriteByte(' ')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// invisible reports whether c is drawn as nothing: a format character
// (Cf: zero-width spaces and joiners, the byte order mark, bidirectional
// controls, the soft hyphen), a variation selector or another default
// ignorable code point (Hangul fillers).
func invisible(c rune) bool {
	return unicode.In(c, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// digitValue is the value of a decimal digit (Unicode category Nd).
// Unicode encodes each script's digits as a run of ten, 0 to 9, so the
// value is the distance from the start of the run, modulo 10 (runs may
// follow each other, as the mathematical digits do).
func digitValue(c rune) int {
	start := c
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(c-start) % 10
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
