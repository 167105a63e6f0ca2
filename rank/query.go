package rank

import (
	"regexp"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/words"
)

// queryTerms analyses q like the content and drops stop words. code
// holds the terms that come from words written like code (ServeHTTP,
// max_len, http.Get, utf8): for those the symbol and path fields count
// fully; for plain English words they count less. Of a word written as
// code, exact holds the whole identifier's term (maxtokens for
// maxTokenSize) and parts the terms of its parts (max, token, size)
// that no other word of the query gave: the whole is what the user
// means, the parts only hint.
func queryTerms(q string) (terms, all []string, code, exact, parts map[string]bool) {
	seen := map[string]bool{}
	code, exact, parts = map[string]bool{}, map[string]bool{}, map[string]bool{}
	plain := map[string]bool{} // terms some word gave on its own
	addWord := func(w string, codeLike bool) {
		toks := Terms(w)
		for i, term := range toks {
			if codeLike {
				code[term] = true
				if len(toks) > 1 {
					if i == 0 {
						exact[term] = true
					} else {
						parts[term] = true
					}
				}
			}
			if !codeLike || len(toks) == 1 {
				plain[term] = true
			}
			if seen[term] {
				continue
			}
			seen[term] = true
			all = append(all, term)
			if !words.IsStop(term) {
				terms = append(terms, term)
			}
		}
	}
	for _, w := range strings.FieldsFunc(q, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ',' || r == '?' || r == '(' || r == ')' || r == '"'
	}) {
		w = words.CutContraction(w)
		// A name written with "::" (widget::render) is its qualifiers and
		// its name, each a word of its own; the name is code.
		ws := scopedWords(w)
		for k, w := range ws {
			codeLike := words.IsCode(w) || len(ws) > 1 && k == len(ws)-1
			addWord(w, codeLike)
		}
	}
	for t := range parts {
		if plain[t] || exact[t] {
			delete(parts, t)
		}
	}
	return terms, all, code, exact, parts
}

// docWords are the words of a question about documentation or an
// explanation ("is there a guide", "one reference that explains"): with
// one of them, prose is not ranked below code, and a package's doc
// comment not below its functions. Kept as the words and their stems, as
// query terms are stemmed.
var docWords = words.Set(`doc docs document documentation readme manual man guide tutorial changelog
	reference explain explains explanation overview introduction beginner`)

// IsDocWord reports whether a word of a question (any case, inflected or
// not) makes it a question about documentation or an explanation.
func IsDocWord(w string) bool {
	w = strings.ToLower(w)
	return docWords[w] || docWords[string(words.Stem([]byte(w)))]
}

// AsksForOverview reports whether a question asks for an overview or a
// reference rather than where or how something is done: "Is there a
// tutorial…", "Are there examples of…", "What is msgpack for",
// "What's Flask". Its answer is a package's doc comment or a README, as
// with docWords. "What is the default…" or "What is a…" asks about a
// value or a concept in the code and is not one.
func AsksForOverview(q string) bool {
	w := strings.Fields(strings.ToLower(q))
	switch {
	case len(w) >= 3 && (w[0] == "is" || w[0] == "are") && w[1] == "there":
		return true
	case len(w) >= 3 && w[0] == "what" && w[1] == "is":
		return !determiners[w[2]]
	case len(w) >= 2 && (w[0] == "what's" || w[0] == "what’s"):
		return !determiners[w[1]]
	}
	return false
}

var determiners = words.Set("the a an this that these those my our your its their")

// qualifiedRE matches a package-qualified name: a lower-case qualifier,
// a dot, an identifier.
var qualifiedRE = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.([A-Za-z_][A-Za-z0-9_]*)\b`)

// phraseRE matches a quoted phrase.
var phraseRE = regexp.MustCompile(`"([^"]+)"`)

// singleQuoteRE matches a phrase in single quotes that stand apart from
// words ('No such command'), not an apostrophe (the user's, don't).
var singleQuoteRE = regexp.MustCompile(`(?:^|[\s(\[,:;])'([^'\n]{2,}?)'(?:[\s)\].,:;?!]|$)`)

// quotedPhrases returns the phrases q quotes, in double or single
// quotes, spacing normalised.
func quotedPhrases(q string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{phraseRE, singleQuoteRE} {
		for _, m := range re.FindAllStringSubmatch(q, -1) {
			if ph := normalizeSpace(m[1]); ph != "" {
				out = append(out, ph)
			}
		}
	}
	return out
}

// WithoutQuotes is q with its quoted phrases (quotedPhrases: "..." and
// '...') left out: the text a question quotes is what the user saw (an
// error message, a usage line), not what they ask for.
func WithoutQuotes(q string) string {
	q = phraseRE.ReplaceAllString(q, " ")
	return singleQuoteRE.ReplaceAllString(q, " ")
}

// codeIdents returns the identifiers q writes as code, lower-cased: a
// word in backticks, or a word of several parts written like code
// (maxTokenSize, max_len, ServeHTTP, http.ResponseWriter: its last
// name). A plain word (Server, token) is not one; an exported name of
// one part qualified by a package (assert.Equal, errors.Is) is, with
// its qualifier in quals: the name alone is a common word, the
// qualifier says which definition is meant. So is any name written
// with "::" (widget::render, crate::io::copy: qualifyScoped), whose
// qualifiers are no identifiers of their own.
func codeIdents(q string) (out []string, quals map[string]Qualifier) {
	seen := map[string]bool{}
	add := func(w string) {
		w = strings.ToLower(w)
		if len(w) > 1 && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	quals = map[string]Qualifier{}
	q = qualifyScoped(q, add, quals)
	for _, m := range backtickRE.FindAllStringSubmatch(q, -1) {
		for _, w := range identWordRE.FindAllString(m[1], -1) {
			add(w[strings.LastIndexByte(w, '.')+1:])
		}
	}
	for _, w := range identWordRE.FindAllString(q, -1) {
		name := w[strings.LastIndexByte(w, '.')+1:]
		if isMultiPart(name) {
			add(name)
		}
	}
	for _, m := range qualifiedRE.FindAllStringSubmatch(q, 8) {
		pkg, name := m[1], m[2]
		if len(pkg) < 2 || len(name) < 2 || name[0] < 'A' || name[0] > 'Z' || isMultiPart(name) {
			continue
		}
		id := strings.ToLower(name)
		if _, ok := quals[id]; ok || seen[id] {
			continue
		}
		add(name)
		quals[id] = Qualifier{Pkg: pkg, Name: name}
	}
	return out, quals
}

var (
	backtickRE  = regexp.MustCompile("`([^`]+)`")
	identWordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
)

// isMultiPart: an identifier of two or more parts, by an underscore
// between letters or a capital after a lower-case letter or digit
// (maxTokenSize, max_len, ServeHTTP, utf8Len); not ALLCAPS, not Capital.
func isMultiPart(w string) bool {
	if strings.Contains(strings.Trim(w, "_"), "_") {
		return true
	}
	for i := 1; i < len(w); i++ {
		a, b := w[i-1], w[i]
		if ('a' <= a && a <= 'z' || '0' <= a && a <= '9') && 'A' <= b && b <= 'Z' {
			return true
		}
	}
	return false
}

// declKinds are the kinds of unit that declare rather than do (see
// Params.DeclFactor).
var declKinds = map[string]bool{"package": true, "struct": true, "interface": true, "type": true,
	"const": true, "var": true, "file": true,
	// The head of a container (its doc comment, signature and fields;
	// its methods are units of their own): a Java class's Javadoc, a
	// Python class's docstring, a Rust trait.
	"class": true, "trait": true, "impl": true, "module": true, "namespace": true, "enum": true, "record": true, "object": true}

// asks says which classes of file the query asks for (Priors): tests
// and documentation by the query's words; vendored code also when the
// query names the vendored project's folder (deps/jemalloc for a question
// about jemalloc).
func (p *Plan) asks(class corpus.Class, path string) Asks {
	a := Asks{Tests: p.AboutTests, Docs: p.AboutDocs, Vendored: p.Asked.Has(corpus.Vendored),
		Packaging: p.Asked.Has(corpus.Packaging), Examples: p.Asked.Has(corpus.Example) || p.AboutTests,
		Assets: p.Asked.Has(corpus.Asset), Tools: p.Asked.Has(corpus.Tool)}
	if class.Has(corpus.Vendored) && !a.Vendored {
		a.Vendored = p.namesFolder(path)
	}
	return a
}

// namesFolder reports whether a term of the query is the name of one of
// path's folders.
func (p *Plan) namesFolder(path string) bool {
	dirs := strings.Split(strings.ToLower(path), "/")
	for _, d := range dirs[:len(dirs)-1] {
		for _, t := range p.Terms {
			if t == d {
				return true
			}
		}
	}
	return false
}
