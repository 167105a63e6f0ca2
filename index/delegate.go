package index

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/rank"
)

// Delegation: a thin wrapper (a public method whose body hands the work
// to another function: Java's CyclicBarrier.await calling dowait, a
// Python request helper calling request, Go's http.Get calling
// DefaultClient.Get) holds the question's words in its doc comment,
// while the code that answers "how" is the function it calls. The
// delegation stage follows each of the first hits that is a wrapper to
// the units of the same file it calls, and puts them right after it.

// wrapperLines is the most lines of code (not comments, not blank) a
// unit's body may have to count as a wrapper.
const wrapperLines = 10

// delegationHits is how many of the first hits of a page are followed.
const delegationHits = 5

// callRE finds a call: an identifier followed by an opening parenthesis.
var callRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// notCallees are words followed by a parenthesis that call nothing.
var notCallees = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "catch": true,
	"synchronized": true, "func": true, "function": true, "def": true, "fn": true, "new": true, "sizeof": true,
	"typeof": true, "super": true, "this": true, "self": true, "print": true, "println": true, "len": true, "make": true,
	"append": true, "assert": true, "elif": true, "match": true, "with": true, "not": true, "and": true, "or": true, "in": true}

// callees returns the hits for the units of the hit's file that the
// hit calls, when it is a wrapper (its text, narrowed to its unit, has
// at most wrapperLines lines of code below its signature), each scored
// share of it. A callee may be a chunk of its own or a unit merged into
// a chunk with its neighbours.
func (s *Snapshot) callees(p *plan, h Hit, text []byte, why rank.Breakdown, share float64) []Hit {
	if share <= 0 || p.lookup || (h.Kind != "func" && h.Kind != "method") {
		return nil
	}
	code := codeLines(text)
	if len(code) < 2 || len(code)-1 > wrapperLines { // the first line is the signature
		return nil
	}
	e := s.st.files[h.Path]
	if e == nil {
		return nil
	}
	own := lastName(h.Symbol)
	var out []Hit
	seen := map[string]bool{}
	for _, line := range code[1:] {
		for _, m := range callRE.FindAllSubmatch(line, -1) {
			name := string(m[1])
			if notCallees[strings.ToLower(name)] || name == own || seen[name] {
				continue
			}
			seen[name] = true
			if u, ch, ok := unitNamed(e.Chunks(), name); ok && u.Start != h.Start {
				sc := h.Score * share
				callee := Hit{Path: h.Path, Start: u.Start, End: u.End, Symbol: u.Symbol, Kind: u.Kind, Language: h.Language, Score: sc}
				body := linesOf(s.chunkText(h.Path, ch), ch.Start, u.Start, u.End)
				callee.Excerpt = excerpt(secret.Redact(body), p.terms)
				if why != nil {
					callee.Explain = append(append(rank.Breakdown{}, why...), rank.Factor{Stage: rank.StageDelegation, Name: "callee of " + own, Value: share})
				}
				out = append(out, callee)
			}
		}
	}
	return out
}

// unitNamed finds the function or method called name among a file's
// chunks and the units merged into them; ch is the chunk that holds it.
func unitNamed(chunks []chunk.Meta, name string) (u chunk.Part, ch chunk.Meta, ok bool) {
	isFunc := func(kind string) bool { return kind == "func" || kind == "method" }
	for _, c := range chunks {
		if isFunc(c.Kind) && lastName(c.Symbol) == name {
			return chunk.Part{Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind}, c, true
		}
		for _, pm := range c.Parts {
			if isFunc(pm.Kind) && lastName(pm.Symbol) == name {
				return pm, c, true
			}
		}
	}
	return chunk.Part{}, chunk.Meta{}, false
}

// linesOf returns lines start..end of a chunk's text whose first line is
// first.
func linesOf(text []byte, first, start, end int) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	lo, hi := start-first, end-first+1
	if lo < 0 || lo >= len(lines) {
		return nil
	}
	return bytes.Join(lines[lo:min(hi, len(lines))], nil)
}

// lastName is a symbol's last name: "Client.Get" is Get.
func lastName(sym string) string {
	if i := strings.LastIndexAny(sym, ". "); i >= 0 {
		return sym[i+1:]
	}
	return sym
}

// codeLines are the lines of text that hold code: not blank, not a
// comment line (//, /*, *, #, --, """ docstrings are skipped as a block).
func codeLines(text []byte) [][]byte {
	var out [][]byte
	inDoc := false
	for _, line := range bytes.Split(text, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte(`"""`)) || bytes.HasPrefix(t, []byte(`'''`)) {
			if !(len(t) > 3 && (bytes.HasSuffix(t, []byte(`"""`)) || bytes.HasSuffix(t, []byte(`'''`)))) {
				inDoc = !inDoc
			}
			continue
		}
		if inDoc || len(t) == 0 || t[0] == '*' || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) ||
			bytes.HasPrefix(t, []byte("/*")) || bytes.HasPrefix(t, []byte("--")) || bytes.Equal(t, []byte("}")) || bytes.Equal(t, []byte("{")) {
			continue
		}
		out = append(out, t)
	}
	return out
}
