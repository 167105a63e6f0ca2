package agent

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/askls/askls/citations"
)

// entryLineRE is an entry's line in a retrieval answer: "- PATH:START-END
// … [n]" (a shown or further entry) or "- PATH:LINE: `code` [n]" (a call
// site).
var entryLineRE = regexp.MustCompile(`^- ([^\s:]+):(\d+)(?:-(\d+))?[:\s].*\[(\d+)\]$`)

// checkLabels reports every way a finished answer's labels fail to be
// true: a marker that names no citation (citations.Check), and in a
// retrieval answer an entry whose place is not its citation's place, or
// whose code is not the text of its citation's lines now ("entry labelled
// [7] at src/options.go:221-245 but [7] is shell/key-bindings.bash:64-81").
// content reads a file as the citations were checked against.
func checkLabels(answer string, cits []citations.Citation, retrieval bool, content citations.ContentFunc) []string {
	problems := citations.Check(answer, cits)
	if !retrieval {
		return problems
	}
	lines := strings.Split(answer, "\n")
	for i := 0; i < len(lines); i++ {
		m := entryLineRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		p := m[1]
		start, _ := strconv.Atoi(m[2])
		end := start
		if m[3] != "" {
			end, _ = strconv.Atoi(m[3])
		}
		n, _ := strconv.Atoi(m[4])
		if n < 1 || n > len(cits) {
			continue // citations.Check said so
		}
		c := cits[n-1]
		if c.Path != p || c.Start != start || c.End != end {
			problems = append(problems, fmt.Sprintf("entry labelled [%d] at %s:%d-%d but [%d] is %s:%d-%d", n, p, start, end, n, c.Path, c.Start, c.End))
			continue
		}
		code, ok := fencedAfter(lines, i+1)
		if !ok {
			continue // a line without code
		}
		b, err := content(c.Path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("entry [%d]: %s cannot be read: %v", n, c.Path, err))
			continue
		}
		if want, _ := citations.Lines(b, c.Start, c.End); code != want {
			problems = append(problems, fmt.Sprintf("entry [%d] shows code that is not %s:%d-%d", n, c.Path, c.Start, c.End))
		}
	}
	return problems
}

// fencedAfter returns the text of the fenced block that starts at line i
// after blank lines, and whether there is one.
func fencedAfter(lines []string, i int) (string, bool) {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) || !strings.HasPrefix(lines[i], "```") {
		return "", false
	}
	fence := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], "`"))]
	var b strings.Builder
	for j := i + 1; j < len(lines); j++ {
		if lines[j] == fence {
			return b.String(), true
		}
		b.WriteString(lines[j] + "\n")
	}
	return "", false
}
