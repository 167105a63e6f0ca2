package index

import (
	"bytes"
	"regexp"
	"strings"

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

// delegationHits is how many of the first hits are followed.
const delegationHits = 5

// callRE finds a call: an identifier followed by an opening parenthesis.
var callRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// notCallees are words followed by a parenthesis that call nothing.
var notCallees = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "catch": true,
	"synchronized": true, "func": true, "function": true, "def": true, "fn": true, "new": true, "sizeof": true,
	"typeof": true, "super": true, "this": true, "self": true, "print": true, "println": true, "len": true, "make": true,
	"append": true, "assert": true, "elif": true, "match": true, "with": true, "not": true, "and": true, "or": true, "in": true}

// followDelegation inserts, after each of the first delegationHits
// candidates that is a wrapper, the units of its file it calls, scored
// DelegationShare of it. A callee already among the candidates moves up.
func (s *Snapshot) followDelegation(p *plan, cands []cand) []cand {
	share := s.ix.rank.DelegationShare
	if share <= 0 || p.lookup || len(cands) == 0 {
		return cands
	}
	out := make([]cand, 0, len(cands)+4)
	taken := map[[2]any]bool{}
	key := func(c cand) [2]any { return [2]any{c.hit.Path, c.meta.Start} }
	var follow []cand
	for i, c := range cands {
		if taken[key(c)] {
			continue
		}
		out = append(out, c)
		taken[key(c)] = true
		if i >= delegationHits {
			continue
		}
		follow = s.callees(c, share)
		for _, f := range follow {
			if !taken[key(f)] {
				out = append(out, f)
				taken[key(f)] = true
			}
		}
	}
	return out
}

// callees returns the units of c's file that c calls, when c is a
// wrapper: its body has at most wrapperLines lines of code.
func (s *Snapshot) callees(c cand, share float64) []cand {
	if c.kind() != "func" && c.kind() != "method" {
		return nil
	}
	text := c.text
	if text == nil {
		text = s.chunkText(c.hit.Path, c.meta)
	}
	code := codeLines(text)
	if len(code) < 2 || len(code)-1 > wrapperLines { // the first line is the signature
		return nil
	}
	e := s.st.files[c.hit.Path]
	if e == nil {
		return nil
	}
	own := lastName(c.hit.Symbol)
	var out []cand
	seen := map[string]bool{}
	for _, line := range code[1:] {
		for _, m := range callRE.FindAllSubmatch(line, -1) {
			name := string(m[1])
			if notCallees[strings.ToLower(name)] || name == own || seen[name] {
				continue
			}
			seen[name] = true
			for _, ch := range e.chunks() {
				if (ch.Kind == "func" || ch.Kind == "method") && lastName(ch.Symbol) == name && ch.Start != c.meta.Start {
					sc := c.score * share
					var why rank.Breakdown
					why = append(why, c.why...)
					why.Add(rank.StageDelegation, "callee of "+own, share)
					out = append(out, cand{hit: Hit{Path: c.hit.Path, Start: ch.Start, End: ch.End, Symbol: ch.Symbol,
						Kind: ch.Kind, Language: e.Lang, Score: sc}, score: sc, meta: ch, test: c.test, why: why})
					break
				}
			}
		}
	}
	return out
}

// kind is the kind of the candidate's unit.
func (c cand) kind() string { return c.meta.Kind }

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
