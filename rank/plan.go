package rank

import (
	"fmt"
	"slices"
	"strings"

	"github.com/askls/askls/corpus"
)

// Query limits.
const (
	maxQueryBytes = 4096
	maxQueryTerms = 48
)

// ErrBadQuery: a query that is empty, too long or has no searchable
// words (index.ErrBadQuery is this error).
var ErrBadQuery error = errorString("bad query")

type errorString string

func (e errorString) Error() string { return string(e) }

// Plan is a parsed query: what every stage needs to know of it. ParseQuery
// builds it; index builds its bleve query from it.
type Plan struct {
	Terms       []string        // search terms, stop words out
	Code        map[string]bool // terms from words written as code
	Exact       map[string]bool // whole identifiers written as code (maxTokenSize)
	Parts       map[string]bool // parts of those identifiers (max, token, size)
	Idents      []string        // identifiers written as code, lower-cased as written (maxtokensize)
	Words       []string        // the query's terms that are plain words (for NameBoost)
	Phrases     []string        // quoted phrases, spacing normalised
	PhraseTerms []string        // the terms of the phrases
	Pairs       [][2]string     // plain words side by side in the query (proximity.go)
	Strict      bool            // the query is only phrases: they must match
	Short       bool            // 3 terms or fewer
	Lookup      bool            // 3 words or fewer: a name looked up, not a question
	AboutTests  bool            // the query asks about tests
	AboutDocs   bool            // the query asks about documentation
	Qualified   [][2]string     // package-qualified names: qualifier, name (analysed)
	// Qualifiers holds, for an identifier of one part that the query
	// writes qualified by a package (assert.Equal: equal) or with "::"
	// (widget::render: render), the qualifiers and the name as written:
	// only a unit in a type or under a folder or file of a qualifier's
	// name defines it (Plan.defines).
	Qualifiers map[string]Qualifier
	Projects   []string     // the workspace's project names (DropNames)
	dotted     []Qualifier  // every name the query qualifies with a dot, as written (projectCalls)
	scoped     []ScopedName // the names the query writes with "::" (ScopedNames)
	Asked      corpus.Class // the classes of file the query asks for (corpus.AsksFor)
	// Abbrevs holds, for a plain term, the identifier parts of the
	// workspace that abbreviate it (index fills it: param for paramet).
	Abbrevs map[string][]string
}

// Qualifier is a qualified name as a query writes it (assert.Equal: Pkg
// assert, Name Equal). Of a name written with "::", Scopes holds every
// qualifier, outermost first, and Pkg the innermost
// (mylib::detail::flush: mylib, detail).
type Qualifier struct {
	Pkg, Name string
	Scopes    []string
}

// CheckQuery returns q without its surrounding space, or ErrBadQuery
// when it is empty or too long.
func CheckQuery(q string) (string, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return "", fmt.Errorf("%w: empty query", ErrBadQuery)
	}
	if len(q) > maxQueryBytes {
		return "", fmt.Errorf("%w: query is %d bytes long, the limit is %d", ErrBadQuery, len(q), maxQueryBytes)
	}
	return q, nil
}

// ParseQuery checks q (CheckQuery) and splits it into what the stages use.
func ParseQuery(q string) (*Plan, error) {
	q, err := CheckQuery(q)
	if err != nil {
		return nil, err
	}
	p := &Plan{}
	// A quoted phrase: all its terms must match, then the chunk's text
	// must hold the phrase (case and spacing aside).
	for _, m := range phraseRE.FindAllStringSubmatch(q, -1) {
		if ph := normalizeSpace(m[1]); ph != "" {
			p.Phrases = append(p.Phrases, ph)
			p.PhraseTerms = append(p.PhraseTerms, Terms(m[1])...)
		}
	}
	// Only quoted phrases: they must match. Phrases inside a question,
	// in double or single quotes, only raise the chunks that hold them
	// (rerank).
	p.Strict = len(p.Phrases) > 0 && strings.TrimSpace(phraseRE.ReplaceAllString(q, "")) == ""
	if !p.Strict {
		p.Phrases = quotedPhrases(q)
	}
	var all []string
	p.Terms, all, p.Code, p.Exact, p.Parts = queryTerms(q)
	p.Short = len(p.Terms) <= 3
	p.Lookup = len(strings.Fields(q)) <= 3
	if len(p.Terms) == 0 {
		p.Terms = all
	}
	if len(p.Terms) == 0 && len(p.Phrases) == 0 {
		return nil, fmt.Errorf("%w: the query has no searchable words", ErrBadQuery)
	}
	if len(p.Terms) > maxQueryTerms {
		p.Terms = p.Terms[:maxQueryTerms]
	}
	p.AboutDocs = AsksForOverview(q)
	p.Asked = corpus.AsksFor(p.Terms)
	p.Pairs = queryPairs(q)
	for _, t := range p.Terms {
		// A test word asks for tests when it is written as English: inside
		// an identifier written as code (RUN_ALL_TESTS, TestMain) it is
		// part of a name.
		if !p.Code[t] && (strings.HasPrefix(t, "test") || t == "benchmark" || t == "example") {
			p.AboutTests = true
		}
		if docWords[t] {
			p.AboutDocs = true
		}
	}
	p.Idents, p.Qualifiers = codeIdents(q)
	for _, t := range p.Terms {
		if !p.Code[t] {
			p.Words = append(p.Words, t)
		}
	}
	p.scoped = ScopedNames(q)
	// A quoted name (env['myproj.session']) is a string the code holds,
	// not a name it defines.
	for _, m := range qualifiedRE.FindAllStringSubmatch(WithoutQuotes(q), 8) {
		p.dotted = append(p.dotted, Qualifier{Pkg: m[1], Name: m[2]})
	}
	for _, m := range qualifiedRE.FindAllStringSubmatch(q, 8) {
		// Analysed as the fields are (lower case, stems): the first token
		// of a word is the whole word.
		pkg, name := Terms(m[1]), Terms(m[2])
		if len(pkg) > 0 && len(name) > 0 {
			p.Qualified = append(p.Qualified, [2]string{pkg[0], name[0]})
		}
	}
	return p, nil
}

// DropNames takes the names of the workspace's projects out of the
// query's terms, unless nothing else would be left: "how does fzf read
// its options" asks where fzf reads them, and the word fzf matches the
// project's packaging (its Homebrew formula, fzf.spec) and every file
// that prints the name, not the code that answers.
func (p *Plan) DropNames(names []string) {
	p.Projects = names
	for _, n := range names {
		// A project named for testing (googletest, pytest, testify) is
		// about tests throughout: a question's test words name what the
		// project does, not its own test files.
		if strings.Contains(n, "test") {
			p.AboutTests = false
		}
	}
	if len(names) == 0 {
		return
	}
	p.unscopeProjects(names)
	p.projectCalls(names)
	if len(p.Terms) < 2 {
		return
	}
	// A project name written as an identifier (rayon_core for rayon-core)
	// is the name, and so are its parts (rayon, core) that the identifier
	// gave.
	var parts []string
	for _, t := range p.Terms {
		if p.Exact[t] && namesProject(names, t) {
			parts = append(parts, Terms(strings.ReplaceAll(t, "_", " "))...) // analysed: tidy is tidi
		}
	}
	// The name of a qualified name (widget.widget(), myproj::myproj) is
	// what the query asks about, even when it is the project's name too.
	asked := p.qualifiedNameTerms()
	isName := func(t string) bool {
		return !asked[t] && (namesProject(names, t) || slices.Contains(parts, t))
	}
	drop := func(ts []string) []string {
		out := ts[:0:0]
		for _, t := range ts {
			if !isName(t) {
				out = append(out, t)
			}
		}
		return out
	}
	if kept := drop(p.Terms); len(kept) > 0 && len(kept) < len(p.Terms) {
		p.Terms, p.Words = kept, drop(p.Words)
		// A crate written as code (rayon_core::spawn for the project
		// rayon-core) is the project too: no chunk need hold it.
		p.Idents = slices.DeleteFunc(p.Idents, func(id string) bool {
			return strings.Contains(id, "_") && namesProject(names, id)
		})
	}
}

// namesProject reports whether t is one of the project names, a hyphen
// and an underscore alike (rayon_core, the crate of rayon-core).
func namesProject(names []string, t string) bool {
	t = strings.ReplaceAll(t, "_", "-")
	for _, n := range names {
		if strings.ReplaceAll(n, "_", "-") == t {
			return true
		}
	}
	return false
}
