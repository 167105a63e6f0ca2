package agent

import (
	"regexp"
	"strings"
	"unicode"
)

// qterm is one content word of a question, as the retrieval answer matches
// it against lines of code.
type qterm struct {
	word string // lower case: "shutdown", "maxtokensize"
	stem string // word without its inflection: "shutdown", "decod"
	code bool   // from a word written as code (ServeHTTP, max_len, errors.Is)
	// name is set for a term from a word written as a name: as code, all
	// capitals (QUIC, YAML), capitalised inside a sentence (Brotli) or
	// with letters and digits (AVX2). A question that names something
	// the code found does not hold is not answered by it.
	name bool
	// whole is set for the joined form of an identifier written as code
	// ("maxtokensize" from maxTokenSize): it matches a token of a line
	// only whole, never as a prefix.
	whole bool
}

// questionTerms are the content words of a question: each word of the
// question split at case changes, underscores, digits and dots, lower
// case, without the words every question is phrased with (stopWords).
// An identifier written as code also gives its whole name as a term.
func questionTerms(q string) []qterm {
	var out []qterm
	seen := map[string]bool{}
	add := func(t qterm) {
		if seen[t.word] || len(out) == 64 { // lineTerms keeps them in a bit set
			return
		}
		seen[t.word] = true
		out = append(out, t)
	}
	examples := exampleSpans(q)
	for _, loc := range wordRE.FindAllStringIndex(q, -1) {
		w := q[loc[0]:loc[1]]
		code := isCodeWord(w)
		name := (code || isNameWord(w, q[:loc[0]])) && !inSpans(examples, loc[0])
		if code {
			for _, part := range strings.Split(w, ".") {
				if whole := strings.ToLower(strings.Trim(part, "_")); len(splitWords(part)) > 1 && len(whole) > 2 {
					add(qterm{word: whole, stem: whole, code: true, name: name, whole: true})
				}
			}
		}
		for _, p := range splitWords(w) {
			if len(p) < 2 || stopWords[p] || (len(p) < 3 && !code) {
				continue
			}
			add(qterm{word: p, stem: stem(p), code: code, name: name})
		}
	}
	return out
}

// wordRE finds the words of a question or a line: letters, digits,
// underscores and inner dots (errors.Is).
var wordRE = regexp.MustCompile(`[\pL\pN_]+(?:\.[\pL_][\pL\pN_]*)*`)

// isCodeWord: a word written as code has an inner capital after a lower
// case letter (ServeHTTP, maxLen), an inner underscore (max_len) or an
// inner dot (errors.Is). Capitalised or all-capital words (Server, HTTP)
// are English.
func isCodeWord(w string) bool {
	t := strings.Trim(w, "_.")
	if strings.Contains(t, ".") || strings.Contains(t, "_") {
		return true
	}
	prevLower := false
	for _, r := range t {
		if unicode.IsUpper(r) && prevLower {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}

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

// splitWords splits an identifier or word into lower-case parts at
// underscores, dots, digits and case changes: "ServeHTTP" → serve, http;
// "parseHTTPVersion2" → parse, http, version; "max_len" → max, len.
func splitWords(w string) []string {
	var out []string
	rs := []rune(w)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return out
}

// stem cuts common English inflections so that "decoded", "decodes" and
// "decoding" meet "decode": a light suffix strip, not a full stemmer.
func stem(w string) string {
	for _, suf := range suffixes {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ly" || suf == "s" {
				continue // "gracefully" → "graceful"; "pieces" → "piece" → "piec"
			}
			break
		}
	}
	return strings.TrimSuffix(w, "e")
}

// lineTerms returns the bit set of the terms (at most 64) that a line
// of code holds, splitting its words as questionTerms splits the
// question's. It allocates nothing: it runs on every line of the units a
// retrieval answer weighs.
func lineTerms(line string, terms []qterm) uint64 {
	var set uint64
	var buf [64]byte
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
		word := line[i:j]
		i = j
		parts := 0
		// The parts of the word, lower case, split at case changes,
		// underscores and digits (ASCII; other bytes stay in a part).
		for k := 0; k < len(word); {
			c := word[k]
			if c == '_' || (c >= '0' && c <= '9') {
				k++
				continue
			}
			e := k + 1
			if c >= 'A' && c <= 'Z' {
				for e < len(word) && word[e] >= 'A' && word[e] <= 'Z' {
					e++
				}
				if e < len(word) && word[e] >= 'a' && word[e] <= 'z' && e-k > 1 {
					e-- // "HTTPServer": HTTP, Server
				}
			}
			for e < len(word) && (word[e] >= 'a' && word[e] <= 'z' || word[e] >= 0x80) {
				e++
			}
			part := word[k:e]
			k = e
			parts++
			if len(part) < 2 || len(part) > len(buf) {
				continue
			}
			lower := buf[:len(part)]
			for x := 0; x < len(part); x++ {
				b := part[x]
				if b >= 'A' && b <= 'Z' {
					b += 'a' - 'A'
				}
				lower[x] = b
			}
			st := stemBytes(lower)
			for t := range terms {
				if !terms[t].whole && terms[t].matchesBytes(lower, st) {
					set |= 1 << uint(t)
				}
			}
		}
		if parts > 1 && len(word) <= len(buf) {
			// The whole identifier, for terms that match only whole.
			lower := buf[:0]
			for x := 0; x < len(word); x++ {
				b := word[x]
				if b == '_' && (x == 0 || x == len(word)-1) {
					continue
				}
				if b >= 'A' && b <= 'Z' {
					b += 'a' - 'A'
				}
				lower = append(lower, b)
			}
			for t := range terms {
				if terms[t].whole && string(lower) == terms[t].word {
					set |= 1 << uint(t)
				}
			}
		}
	}
	return set
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// stemBytes is stem on a lower-case word in place (it returns a prefix).
func stemBytes(w []byte) []byte {
	for _, suf := range suffixes {
		if len(w) > len(suf)+3 && string(w[len(w)-len(suf):]) == suf {
			w = w[:len(w)-len(suf)]
			if suf == "ly" || suf == "s" {
				continue
			}
			break
		}
	}
	if len(w) > 0 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

var suffixes = []string{"ing", "ed", "es", "s", "ly", "e"}

// matchesBytes is matches on a lower-case token and its stem.
func (t qterm) matchesBytes(tok, tokStem []byte) bool {
	if string(tokStem) == t.stem || string(tok) == t.word {
		return true
	}
	a, b := t.stem, tokStem
	if len(a) <= len(b) {
		return len(a) >= 4 && string(b[:len(a)]) == a
	}
	return len(b) >= 4 && a[:len(b)] == string(b)
}

// stopWords are words a question is phrased with that say nothing about
// the code: English function words and the verbs and nouns of questions
// about code ("where", "function", "implemented").
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for from with without into onto
	over under about as is are was were be been being do does did done doing have has had having
	it its this that these those there here then than so such not no nor only own same too very
	can could should would will shall may might must me my we our you your he she they them their
	what which who whom whose where when why how all any both each few more most other some
	just also again out up down off further while until because before after above below between through during
	get gets got make makes made use used uses using way ways thing things
	code function functions method methods implemented implement implementation defined define
	find look happens happen actually called call calls golang
	aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shan shouldn wasn weren won wouldn
	ll ve re eg ie vs etc like one see tell show does whether instead even ever really`) {
		stopWords[w] = true
	}
}
