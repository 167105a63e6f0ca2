package rank

import (
	"bytes"
	"math"
	"strings"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/words"
)

// Delegation: a thin wrapper (a public method whose body hands the work
// to another function: Java's CyclicBarrier.await calling dowait, a
// Python request helper calling request, Go's http.Get calling
// DefaultClient.Get) holds the question's words in its doc comment,
// while the code that answers "how" is the function it calls. The
// delegation stage follows each of the first hits that is a wrapper to
// the units of the same file it calls, and puts them right after it.
//
// Any other of the first hits is followed too, more cautiously: the
// answer to "how does X work" is often the function X's code hands a
// step to (index/testdata/rank_callees.txtar: a periodic job's Run
// calls advance, which computes the next start), and that function
// often names few of the question's words. Each
// unit of the same file such a hit calls enters the page at
// CalleeShare of the hit's score times the square root of the share of
// the question's terms the callee holds (CalleeScore), among the other
// hits by that score.

// wrapperLines is the most lines of code (not comments, not blank) a
// unit's body may have to count as a wrapper.
const wrapperLines = 10

// DelegationHits is how many of the first hits of a page are followed.
const DelegationHits = 5

// callNames calls fn with the name of each call on line, in order: an
// identifier (its first letter or underscore to the end of its run of
// letters, digits and underscores) followed by spaces and an opening
// parenthesis ("f(", "obj.method (", "9x(" calls x). It finds what the
// regular expression `([A-Za-z_][A-Za-z0-9_]*)\s*\(` finds, without its
// cost: it ran on every line of the first hits' bodies.
func callNames(line []byte, fn func(name []byte)) {
	for i := 0; i < len(line); {
		if !words.IsIdentByte(line[i]) {
			i++
			continue
		}
		start := -1
		j := i
		for ; j < len(line) && words.IsIdentByte(line[j]); j++ {
			if start < 0 && !isDigit(line[j]) {
				start = j
			}
		}
		k := j
		for k < len(line) && isRegexpSpace(line[k]) {
			k++
		}
		if start >= 0 && k < len(line) && line[k] == '(' {
			fn(line[start:j])
			i = k + 1
			continue
		}
		i = j
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isRegexpSpace is the \s of Go's regular expressions.
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// notCallees are words followed by a parenthesis that call nothing.
var notCallees = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "catch": true,
	"synchronized": true, "func": true, "function": true, "def": true, "fn": true, "new": true, "sizeof": true,
	"typeof": true, "super": true, "this": true, "self": true, "print": true, "println": true, "len": true, "make": true,
	"append": true, "assert": true, "elif": true, "match": true, "with": true, "not": true, "and": true, "or": true, "in": true}

// Callee is a unit a wrapper calls: the unit and the chunk that holds it
// (a chunk of its own, or one it is merged into with its neighbours).
type Callee struct {
	Unit  chunk.Part
	Chunk chunk.Meta
}

// Callees returns the units of the hit's file (chunks gives its chunks)
// that the hit, unit u with text text, calls, when it is a wrapper (its
// text, narrowed to its unit, has at most wrapperLines lines of code
// below its signature) and the delegation stage is on (share > 0): each
// is scored share of the hit (index writes the hits, with a factor
// StageDelegation "callee of" the wrapper's last name, LastName).
func Callees(p *Plan, share float64, u chunk.Part, text []byte, chunks func() []chunk.Meta) []Callee {
	if share <= 0 {
		return nil
	}
	return calls(p, u, text, chunks, wrapperLines)
}

// Calls returns the units of the hit's file that u, a function or
// method of any size with text text, calls (none in a lookup).
func Calls(p *Plan, u chunk.Part, text []byte, chunks func() []chunk.Meta) []Callee {
	return calls(p, u, text, chunks, -1)
}

// CalleeScore is the score of a unit with text body that a hit scoring
// score calls: share of it, times the square root of the share of terms
// body holds (Covers).
func CalleeScore(score, share float64, body []byte, terms []string) float64 {
	return score * share * math.Sqrt(Covers(body, "", terms))
}

// calls returns the units of the file that u calls, when u is a
// function or method with at most maxLines lines of code below its
// signature (no limit when maxLines < 0).
func calls(p *Plan, u chunk.Part, text []byte, chunks func() []chunk.Meta, maxLines int) []Callee {
	names := calledNames(p, u, text, maxLines)
	if len(names) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	found := unitsNamed(chunks(), seen)
	var out []Callee
	for _, name := range names {
		if cl, ok := found[name]; ok && cl.Unit.Start != u.Start {
			out = append(out, cl)
		}
	}
	return out
}

// calledNames returns the names u, a function or method with text
// text, calls, in the order of their first call, when it has at most
// maxLines lines of code below its signature (no limit when maxLines <
// 0); none in a lookup.
func calledNames(p *Plan, u chunk.Part, text []byte, maxLines int) []string {
	if p.Lookup || (u.Kind != "func" && u.Kind != "method") {
		return nil
	}
	code := codeLines(text)
	if len(code) < 2 || (maxLines >= 0 && len(code)-1 > maxLines) { // the first line is the signature
		return nil
	}
	own := LastName(u.Symbol)
	var names []string // called, in the order of their first call
	seen := map[string]bool{}
	for _, line := range code[1:] {
		callNames(line, func(b []byte) {
			if name := string(b); !notCallees[strings.ToLower(name)] && name != own && !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		})
	}
	return names
}

// unitsNamed finds the first function or method of each name in names
// among a file's chunks and the units merged into them, in one pass over
// them (a long function calls dozens of names; a large file has
// thousands of units); a Callee's Chunk is the chunk that holds it.
func unitsNamed(chunks []chunk.Meta, names map[string]bool) map[string]Callee {
	isFunc := func(kind string) bool { return kind == "func" || kind == "method" }
	found := map[string]Callee{}
	take := func(p chunk.Part, c chunk.Meta) {
		if !isFunc(p.Kind) {
			return
		}
		name := LastName(p.Symbol)
		if _, done := found[name]; names[name] && !done {
			found[name] = Callee{Unit: p, Chunk: c}
		}
	}
	for _, c := range chunks {
		take(chunk.Part{Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind}, c)
		for _, pm := range c.Parts {
			take(pm, c)
		}
	}
	return found
}

// LinesOf returns lines start..end of a chunk's text whose first line is
// first.
func LinesOf(text []byte, first, start, end int) []byte {
	lines := bytes.SplitAfter(text, []byte("\n"))
	lo, hi := start-first, end-first+1
	if lo < 0 || lo >= len(lines) {
		return nil
	}
	return bytes.Join(lines[lo:min(hi, len(lines))], nil)
}

// LastName is a symbol's last name: "Client.Get" is Get.
func LastName(sym string) string {
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
