package retrieval

import (
	"fmt"
	"strings"

	"github.com/askls/askls/agent/unit"
)

// ShownEntries is how many entries of a retrieval answer show code; the
// rest are listed under "Also relevant:", one line each.
const ShownEntries = 3

// cited is an entry as the answer shows it: the lines it cites and their
// evidence number.
type cited struct {
	e          entry
	start, end int
	text       string
	id         int
}

// cite registers the lines each entry shows (citedAt): the first
// ShownEntries an excerpt of their span, the others their span. An entry
// whose lines cannot be read is left out.
func (r *run) cite(entries []entry) []cited {
	var out []cited
	for i, e := range entries {
		lines := citedAt(&e, i) // as pick checked them
		s, end := lines.Start, lines.End
		text, ok := e.ft.LineIndex.Lines(s, end)
		if !ok {
			continue
		}
		id := r.reg.Add(e.u.Path, s, end, text, e.u.Symbol)
		out = append(out, cited{e: e, start: s, end: end, text: text, id: id})
	}
	return out
}

// writeShown writes entries with their code: per entry its label and a
// fenced block of exactly the cited lines.
func writeShown(b *strings.Builder, cs []cited) {
	for _, c := range cs {
		fmt.Fprintf(b, "\n%s\n", entryLabel(c))
		fence := "```"
		for strings.Contains(c.text, fence) {
			fence += "`"
		}
		fmt.Fprintf(b, "%s%s\n%s%s\n", fence, langOf(c.e.u.Lang, c.e.u.Path), c.text, fence)
	}
}

// writeAlso writes the further entries, one line each, no code; an
// entry already cited above (a one-line unit that is a call site) is not
// listed twice.
func writeAlso(b *strings.Builder, cs []cited, citedAbove map[int]bool) {
	var lines []string
	for _, c := range cs {
		if !citedAbove[c.id] {
			lines = append(lines, entryLabel(c))
		}
	}
	if len(lines) == 0 {
		return
	}
	if !strings.HasSuffix(b.String(), "```\n") {
		b.WriteString("\n") // after a list or a paragraph; right under a code block a paragraph may follow
	}
	b.WriteString("Also relevant:\n" + strings.Join(lines, "\n") + "\n")
}

// entryLabel is an entry's line: where its lines are, the unit's
// signature (else kind and name) as code, where it is declared when that
// is not among the lines, and its marker, after "- ":
//
//	net/http/server.go:3160-3171 `func (s *Server) Shutdown(ctx context.Context) error` (declared at line 3150) [5]
//
// The place comes first and the signature is a code span whose fence no
// backtick in it can close, so that the marker is always read as one
// (checkLabels checks it).
func entryLabel(c cited) string {
	u := c.e.u
	where := fmt.Sprintf("%s:%d-%d", u.Path, c.start, c.end)
	name := u.Sig
	if name == "" {
		name = u.Symbol
		if name != "" && u.Kind != "" && !strings.HasPrefix(name, u.Kind+" ") {
			name = u.Kind + " " + name
		}
	}
	name = unit.CutLabel(name)
	label := "- " + where
	if name != "" {
		label += " " + codeSpan(name)
	}
	if u.Decl > 0 && (u.Decl < c.start || u.Decl > c.end) {
		label += fmt.Sprintf(" (declared at line %d)", u.Decl)
	}
	return fmt.Sprintf("%s [%d]", label, c.id)
}
