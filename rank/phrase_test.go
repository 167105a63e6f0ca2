package rank

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// holdsPhraseSlow is the definition containsPhrase must agree with: a
// case-blind regular expression of the phrase, its spaces any run of
// white space, matching at a word's edge where the phrase begins or ends
// with a letter or a digit.
func holdsPhraseSlow(text, phrase string) bool {
	words := strings.Split(phrase, " ")
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	re := regexp.MustCompile(`^(?i:` + strings.Join(words, `\s+`) + `)`)
	first, _ := utf8.DecodeRuneInString(phrase)
	last, _ := utf8.DecodeLastRuneInString(phrase)
	for i := range text { // each rune's start

		m := re.FindStringIndex(text[i:])
		if m == nil {
			continue
		}
		if (!wordRune(first) || wordEdge([]byte(text), i)) && (!wordRune(last) || wordEdge([]byte(text), i+m[1])) {
			return true
		}
	}
	return false
}

func TestContainsPhraseAgreesWithNormalizedText(t *testing.T) {
	cases := []struct {
		text, phrase string
		want         bool
	}{
		{"// Keep\n\t//   alive the Conn", "keep alive", false}, // "//" between the words
		{"keep\n\t  Alive", "keep alive", true},
		{"keepalive", "keep alive", false},
		{"Content-Type: text", "content-type:", true},
		{"ÉTÉ  chaud", "été chaud", true},
		{"end of file", "end of file", true},
		{"end of fil", "end of file", false},
		{"a catalog of entries", "log", false},     // inside a word
		{"logged twice", "log", false},             // a word's start only
		{"set readTimeout first", "timeout", true}, // an identifier's part
		{"set read_timeout first", "read", true},   // snake_case parts
		{"Timeout2 reached", "timeout", true},      // a digit ends the part
		{"100%sure", "%sure", true},                // the phrase's edge is no letter
		{"ends with: done", "with:", true},
		{"", "x", false},
	}
	for _, c := range cases {
		if got := containsPhrase([]byte(c.text), c.phrase); got != c.want || got != holdsPhraseSlow(c.text, c.phrase) {
			t.Errorf("containsPhrase(%q, %q) = %v, want %v", c.text, c.phrase, got, c.want)
		}
	}
	// Random texts over an alphabet of both cases, white space and
	// multi-byte letters; phrases cut from their normalized form or made
	// up.
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "B", "b", "A", " ", "  ", "\t", "\n", "é", "É", "-", "\xff"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		text := gen(rng.Intn(30))
		var phrase string
		if norm := normalizeSpace(text); norm != "" && rng.Intn(2) == 0 {
			i := rng.Intn(len(norm))
			j := i + rng.Intn(len(norm)-i) + 1
			phrase = strings.TrimSpace(strings.ToValidUTF8(norm[i:j], "\uFFFD"))
		} else {
			phrase = normalizeSpace(gen(1 + rng.Intn(4)))
		}
		if phrase == "" {
			continue
		}
		if got, want := containsPhrase([]byte(text), phrase), holdsPhraseSlow(text, phrase); got != want {
			t.Fatalf("containsPhrase(%q, %q) = %v, normalized text says %v", text, phrase, got, want)
		}
	}
}

// containsPhraseByRune is containsPhrase without its ASCII fast path:
// each rune decoded and lower-cased by package unicode.
func containsPhraseByRune(text []byte, phrase string) bool {
	if phrase == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(phrase)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if unicode.ToLower(r) == first && phraseWordsAt(text, i, phrase) {
			return true
		}
		i += size
	}
	return false
}

func TestContainsPhraseFastPathAgrees(t *testing.T) {
	for c := 0; c < utf8.RuneSelf; c++ {
		if got, want := rune(asciiLower(byte(c))), unicode.ToLower(rune(c)); got != want {
			t.Fatalf("asciiLower(%q) = %q, unicode.ToLower says %q", rune(c), got, want)
		}
	}
	rng := rand.New(rand.NewSource(2))
	for _, alphabet := range [][]string{
		// Runes whose lower case is ASCII (the Kelvin sign, İ), invalid
		// bytes, both cases.
		{"k", "K", "\u212a", "i", "I", "\u0130", " ", "\n", "é", "\xff", "\xe2\x84", "-"},
		// ASCII only (containsPhraseASCII), long enough for isASCII's
		// eight bytes at a time.
		{"k", "K", "ka", "A", "a", " ", "  ", "\n", "\t", "-", "1", "z"},
	} {
		gen := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			return b.String()
		}
		for range 20000 {
			text, phrase := gen(rng.Intn(40)), normalizeSpace(gen(1+rng.Intn(3)))
			if rng.Intn(4) == 0 {
				phrase = strings.ToUpper(phrase) // no text holds it (phrases are lower case)
			}
			if got, want := containsPhrase([]byte(text), phrase), containsPhraseByRune([]byte(text), phrase); got != want {
				t.Fatalf("containsPhrase(%q, %q) = %v, by rune %v", text, phrase, got, want)
			}
		}
	}
	for _, text := range []string{"", "abcdefgh", "abcdefghi", "abcdefg\x80", "\x80bcdefgh", "abcdefgh\xc3\xa9"} {
		want := true
		for _, c := range []byte(text) {
			want = want && c < utf8.RuneSelf
		}
		if got := isASCII([]byte(text)); got != want {
			t.Errorf("isASCII(%q) = %v, want %v", text, got, want)
		}
	}
}
