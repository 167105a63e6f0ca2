package citations

import (
	"fmt"
	"strings"
)

// Marker is a numeric citation marker as a reader of an answer sees it:
// outside fenced code and code spans, not an index expression.
type Marker struct {
	Line int   // 1-based line of the answer
	Nums []int // the numbers it names, in order
}

// Markers finds the numeric markers ("[3]", "[1, 4]") of an answer as a
// Markdown reader sees them: a fence (three or more backticks at a line
// start) hides its lines, a code span hides its text when a run of as
// many backticks closes it on its line (an unclosed run is plain text),
// a '[' after a word byte is an index expression, and a byte after a
// backslash is that byte as text ("\\[1]" is not a marker). It reads the answer
// on its own, apart from the Rewriter, so that a check built on it
// catches what the Rewriter let through.
func Markers(answer string) []Marker {
	var out []Marker
	fence := false
	for n, line := range strings.Split(answer, "\n") {
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++ // an escaped byte: "\[" is a bracket, "\`" a backtick, never a marker or code
			case c == '`':
				j := i
				for j < len(line) && line[j] == '`' {
					j++
				}
				if k := closingOnLine(line, j, j-i); k > 0 {
					i = k - 1
				} else {
					i = j - 1
				}
			case c == '[' && (i == 0 || !isWordByte(line[i-1])):
				j := strings.IndexByte(line[i:], ']')
				if j < 0 {
					continue
				}
				if ids, ok := parseMarker(line[i+1:i+j], maxMarkerNums); ok {
					out = append(out, Marker{Line: n + 1, Nums: ids})
				}
				i += j
			}
		}
	}
	return out
}

// maxMarkerNums bounds how far Markers expands a range ("[1-99999]"):
// no answer cites that many.
const maxMarkerNums = 1000

// closingOnLine is the offset after the run of exactly n backticks at or
// after from in line, 0 when there is none.
func closingOnLine(line string, from, n int) int {
	for k := from; k < len(line); {
		if line[k] != '`' {
			k++
			continue
		}
		m := k
		for m < len(line) && line[m] == '`' {
			m++
		}
		if m-k == n {
			return m
		}
		k = m
	}
	return 0
}

// Check reports what is wrong with the labels of a finished answer: a
// marker that names no citation (a number beyond the list, 0), and a
// citation list not numbered 1..k. An empty result means every [n] a
// reader sees names exactly one entry of cits.
func Check(answer string, cits []Citation) []string {
	var problems []string
	for i, c := range cits {
		if c.N != i+1 {
			problems = append(problems, fmt.Sprintf("citation %d of the list is numbered [%d]", i+1, c.N))
		}
	}
	for _, m := range Markers(answer) {
		for _, n := range m.Nums {
			if n < 1 || n > len(cits) {
				problems = append(problems, fmt.Sprintf("line %d: [%d] names nothing (the list has %d)", m.Line, n, len(cits)))
				break
			}
		}
	}
	return problems
}
