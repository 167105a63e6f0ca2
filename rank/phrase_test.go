package rank

import (
	"math/rand"
	"strings"
	"testing"
)

// holdsPhraseSlow is the definition containsPhrase must agree with.
func holdsPhraseSlow(text, phrase string) bool {
	return strings.Contains(normalizeSpace(text), phrase)
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
