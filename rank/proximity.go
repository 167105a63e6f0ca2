package rank

import (
	"strings"
	"unicode"

	"github.com/askls/askls/words"
)

// Proximity: a question's words that stand next to each other ("reader/
// writer lock", "new readers") are often a name for one thing, and a
// chunk that writes them next to each other too is about that thing,
// where another chunk only holds the same words scattered. The rerank
// multiplies a candidate's score by 1 + ProximityBoost × the share of
// the question's word pairs its text holds side by side.

// queryPairs returns the pairs of plain words that stand next to each
// other in q (separated by spaces, '/' or '-'), both not stop words, as
// their terms (lower case, stemmed). Words written as code, and
// punctuation that ends a clause, break a run. Each pair is listed once.
func queryPairs(q string) [][2]string {
	var pairs [][2]string
	seen := map[[2]string]bool{}
	prev := ""
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == '/' || r == '-' }) {
		trimmed := strings.TrimRight(w, ",.;:?!)\"'")
		if strings.HasPrefix(w, "(") {
			prev = "" // a parenthesis opens: its first word starts a run
		}
		term := ""
		if word := strings.TrimLeft(trimmed, "(\"'"); word != "" && !words.IsCode(word) {
			if toks := Terms(words.CutContraction(word)); len(toks) == 1 && !words.IsStop(toks[0]) {
				term = toks[0]
			}
		}
		if prev != "" && term != "" && prev != term {
			if pr := [2]string{prev, term}; !seen[pr] {
				seen[pr] = true
				pairs = append(pairs, pr)
			}
		}
		prev = term
		if len(trimmed) < len(w) {
			prev = "" // a clause or a parenthesis ends
		}
	}
	return pairs
}

// pairShare is the share of the matcher's pairs that the text it last
// scanned holds side by side: the first term where a word or an
// identifier part starts, the rest of that word, at most a few
// separators (white space, a line break with its comment marker, '/',
// '-', '_', '.'), then the second term starting a word or part (pairAt).
// Two parts of one identifier (readerWait) are side by side.
func (m *matcher) pairShare() float64 {
	if len(m.held) == 0 {
		return 0
	}
	n := 0
	for _, h := range m.held {
		if h {
			n++
		}
	}
	return float64(n) / float64(max(len(m.held), minPairs))
}

// minPairs is the least denominator of pairShare: one pair matched of a
// question's only one is weaker evidence than three of three.
const minPairs = 3

// maxPairGap is how many separator bytes may stand between the words of
// a pair: a line break with the next line's indentation and comment
// marker fits.
const maxPairGap = 12

// pairAt reports whether, after a pair's first word ends in text at j
// (it started a word or part), the rest of that word, then at most
// maxPairGap separators, then second starting a word or part follow:
// or, when the rest of the word stops at an upper-case letter (the next
// identifier part), second starts there. The text is compared
// lower-cased.
func pairAt(text []byte, j int, second string) bool {
	for j < len(text) && isLowerOrDigit(text[j]) {
		j++
	}
	if j < len(text) && isUpperASCII(text[j]) {
		return hasPrefixFold(text[j:], second)
	}
	gap := 0
	for j < len(text) && gap <= maxPairGap && isPairSeparator(text[j]) {
		j++
		gap++
	}
	if gap == 0 || gap > maxPairGap || j >= len(text) {
		return false
	}
	return hasPrefixFold(text[j:], second)
}

func isLowerOrDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func isUpperASCII(c byte) bool   { return 'A' <= c && c <= 'Z' }

// isPairSeparator: what may stand between two words of a pair.
func isPairSeparator(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '/', '-', '_', '.', '*', '#':
		return true
	}
	return false
}
