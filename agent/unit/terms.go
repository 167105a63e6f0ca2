package unit

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/askls/askls/words"
)

// Term is one content word of a question, as the retrieval answer matches
// it against lines of code.
type Term struct {
	Word string // lower case: "shutdown", "maxtokensize"
	Stem string // word without its inflection: "shutdown", "decod"
	Code bool   // from a word written as code (ServeHTTP, max_len, errors.Is)
	// Name is set for a term from a word written as a name: as code, all
	// capitals (QUIC, YAML), capitalised inside a sentence (Brotli) or
	// with letters and digits (AVX2). A question that names something
	// the code found does not hold is not answered by it.
	Name bool
	// Whole is set for the joined form of an identifier written as code
	// ("maxtokensize" from maxTokenSize): it matches a token of a line
	// only whole, never as a prefix.
	Whole bool
}

// QuestionTerms are the content words of a question: each word of the
// question split at case changes, underscores, digits and dots, lower
// case, without the words every question is phrased with (stopWords).
// An identifier written as code also gives its whole name as a term.
func QuestionTerms(q string) []Term {
	var out []Term
	seen := map[string]bool{}
	add := func(t Term) {
		if seen[t.Word] || len(out) == 64 { // lineTerms keeps them in a bit set
			return
		}
		seen[t.Word] = true
		out = append(out, t)
	}
	examples := exampleSpans(q)
	for _, loc := range wordRE.FindAllStringIndex(q, -1) {
		w := q[loc[0]:loc[1]]
		code := words.IsCode(w)
		// A number (512 in "512-bit keys") or a quantity (10MB, 3xx)
		// is a value, not a name: the code writes it as it likes (1<<9,
		// a constant's name).
		name := (code || isNameWord(w, q[:loc[0]])) && !inSpans(examples, loc[0]) && !isValue(w)
		if code {
			for _, part := range strings.Split(w, ".") {
				if whole := strings.ToLower(strings.Trim(part, "_")); len(splitWords(part)) > 1 && len(whole) > 2 {
					add(Term{Word: whole, Stem: whole, Code: true, Name: name, Whole: true})
				}
			}
		}
		for _, p := range splitWords(w) {
			if len(p) < 2 || words.IsStop(p) || (len(p) < 3 && !code) {
				continue
			}
			add(Term{Word: p, Stem: string(words.Stem([]byte(p))), Code: code, Name: name})
		}
	}
	return out
}

// wordRE finds the words of a question or a line: letters, digits,
// underscores and inner dots (errors.Is).
var wordRE = regexp.MustCompile(`[\pL\pN_]+(?:\.[\pL_][\pL\pN_]*)*`)

// exampleSpans are the parts of a question that quote an example value
// rather than name something to find: text in quotes ("Wed 09 Jan",
// 'résumé.pdf') and words joined to a value or a path
// (author__name__icontains='x', :userId, blog/post_detail.html).
func exampleSpans(q string) [][2]int {
	var out [][2]int
	for _, m := range quotedRE.FindAllStringIndex(q, -1) {
		out = append(out, [2]int{m[0], m[1]})
	}
	for _, m := range chunkRE.FindAllStringIndex(q, -1) {
		c := strings.TrimRight(q[m[0]:m[1]], ".,;:?!)")
		if strings.ContainsAny(strings.TrimLeft(c, "("), "=:/'\"<>{}[]") || strings.HasPrefix(c, ":") {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	return out
}

var (
	quotedRE = regexp.MustCompile(`"[^"]*"|“[^”]*”|(^|[\s(])'[^']*'`)
	chunkRE  = regexp.MustCompile(`\S+`)
)

// isValue: w starts with a digit (512, 10MB, 3xx, 1.5s): a number or a
// quantity. No language's identifier starts with one.
func isValue(w string) bool {
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

func inSpans(spans [][2]int, at int) bool {
	for _, s := range spans {
		if s[0] <= at && at < s[1] {
			return true
		}
	}
	return false
}

// isNameWord: a word written as a name rather than as English: all
// capitals of two letters or more (QUIC), letters with digits (AVX2),
// or capitalised where a sentence does not start (Brotli). before is the
// question up to the word.
func isNameWord(w, before string) bool {
	letters, upper, digits := 0, 0, 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			letters++
			upper++
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	switch {
	case letters >= 2 && upper == letters:
		return true
	case letters > 0 && digits > 0:
		return true
	case upper == 0:
		return false
	}
	b := strings.TrimRight(before, " \t\n\"'(“‘*_")
	return b != "" && !strings.ContainsAny(b[len(b)-1:], ".?!:")
}

// splitWords splits an identifier or word into lower-case parts as the
// index does (words.Parts): "ServeHTTP" → serve, http;
// "parseHTTPVersion2" → parse, http, version, 2; "max_len" → max, len.
func splitWords(w string) []string {
	var buf [64][2]int
	n := words.Parts([]byte(w), buf[:])
	parts := buf[:min(n, len(buf))]
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		out = append(out, strings.ToLower(w[p[0]:p[1]]))
	}
	return out
}

// lineTerms returns the bit set of the terms (at most 64) that a line
// of code holds, splitting its words as QuestionTerms splits the
// question's. It allocates nothing: it runs on every line of the units a
// retrieval answer weighs.
func lineTerms(line string, terms []Term) uint64 {
	var set uint64
	n := len(line)
	for i := 0; i < n; {
		if !isWordByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < n && isWordByte(line[j]) {
			j++
		}
		set |= wordTerms(line[i:j], terms)
		i = j
	}
	return set
}

// wordTerms is the bit set of the terms one word of a line holds: its
// parts (words.Parts) lower-cased and stemmed, and the whole identifier
// for the terms that match only whole.
func wordTerms(word string, terms []Term) uint64 {
	var wb [128]byte
	var spans [32][2]int
	var buf [64]byte
	if len(word) > len(wb) {
		return 0 // a blob, not a word
	}
	wordB := wb[:copy(wb[:], word)]
	parts := words.Parts(wordB, spans[:])
	var set uint64
	for _, sp := range spans[:min(parts, len(spans))] {
		part := wordB[sp[0]:sp[1]]
		if len(part) < 2 || len(part) > len(buf) {
			continue
		}
		lower := appendLower(buf[:0], part, false)
		st := words.Stem(lower)
		for t := range terms {
			if !terms[t].Whole && terms[t].matchesBytes(lower, st) {
				set |= 1 << uint(t)
			}
		}
	}
	if parts > 1 && len(word) <= len(buf) {
		lower := appendLower(buf[:0], wordB, true)
		for t := range terms {
			if terms[t].Whole && string(lower) == terms[t].Word {
				set |= 1 << uint(t)
			}
		}
	}
	return set
}

// appendLower appends w lower-cased (ASCII) to dst; with trim, without a
// leading or trailing underscore.
func appendLower(dst, w []byte, trim bool) []byte {
	for x, b := range w {
		if trim && b == '_' && (x == 0 || x == len(w)-1) {
			continue
		}
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		dst = append(dst, b)
	}
	return dst
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// matchesBytes is matches on a lower-case token and its stem.
func (t Term) matchesBytes(tok, tokStem []byte) bool {
	if string(tokStem) == t.Stem || string(tok) == t.Word {
		return true
	}
	a, b := t.Stem, tokStem
	if len(a) <= len(b) {
		return len(a) >= 4 && string(b[:len(a)]) == a
	}
	return len(b) >= 4 && a[:len(b)] == string(b)
}
