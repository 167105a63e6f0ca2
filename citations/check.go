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
// Markdown reader sees them: a fence hides its lines (CommonMark's rule:
// three or more backticks after at most 3 spaces, no backtick in the
// info string; closed by a run at least as long with nothing after it),
// a code span may run over the lines of its paragraph, a code span hides its text when a run of as
// many backticks closes it on its line (an unclosed run is plain text),
// a '[' after a word byte is an index expression, and a byte after a
// backslash is that byte as text ("\\[1]" is not a marker). It reads the answer
// on its own, apart from the Rewriter, so that a check built on it
// catches what the Rewriter let through.
func Markers(answer string) []Marker {
	var out []Marker
	fence := 0 // the length of the backtick run that opened the fence we are in, 0 outside
	// A lone CR ends a line too, as it does for the Rewriter.
	answer = strings.ReplaceAll(strings.ReplaceAll(answer, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(answer, "\n")
	first := -1 // the first line of the paragraph being gathered
	flush := func(end int) {
		if first >= 0 {
			out = append(out, paragraphMarkers(lines[first:end], first+1)...)
		}
		first = -1
	}
	for n, line := range lines {
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && strings.HasPrefix(t, "```") {
			run := len(t) - len(strings.TrimLeft(t, "`"))
			rest := t[run:]
			switch {
			case fence == 0 && !strings.Contains(rest, "`"):
				flush(n)
				fence = run // an opening fence: no backtick in its info string
				continue
			case fence > 0 && run >= fence && strings.TrimSpace(rest) == "":
				fence = 0 // a closing fence: as long a run, nothing after it
				continue
			}
		}
		switch {
		case fence > 0:
		case strings.TrimSpace(line) == "":
			flush(n) // a blank line ends the paragraph
		case first < 0:
			first = n
		}
	}
	flush(len(lines))
	return out
}

// paragraphMarkers finds the markers of one paragraph, whose first line
// is line number firstLine. A code span may run over several lines of a
// paragraph: a backtick run is code up to the next run of as many
// backticks in the paragraph, and plain text when there is none.
func paragraphMarkers(lines []string, firstLine int) []Marker {
	var out []Marker
	para := strings.Join(lines, "\n")
	lineAt := func(off int) int { return firstLine + strings.Count(para[:off], "\n") }
	for i := 0; i < len(para); i++ {
		switch c := para[i]; {
		case c == '\\':
			i++ // an escaped byte: "\\[" is a bracket, "\\`" a backtick, never a marker or code
		case c == '`':
			j := i
			for j < len(para) && para[j] == '`' {
				j++
			}
			if k := closingOnLine(para, j, j-i); k > 0 {
				i = k - 1
			} else {
				i = j - 1
			}
		case c == '[' && (i == 0 || !isWordByte(para[i-1])):
			j := strings.IndexAny(para[i:], "]\n")
			if j < 0 || para[i+j] != ']' {
				continue
			}
			if ids, ok := parseMarker(para[i+1:i+j], maxMarkerNums); ok {
				out = append(out, Marker{Line: lineAt(i), Nums: ids})
			}
			i += j
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
