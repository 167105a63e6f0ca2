package retrieval

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/index"
)

// maxUses caps the call sites shown per definition.
const maxUses = 8

// writeUses lists where the first two defined functions are called in
// their own folder tree ("Name(" by grep), each line cited. Only calls in
// code count: a match in a comment, a string, a docstring or a doctest is
// not a call, and tests are left out.
func (r *run) writeUses(ctx context.Context, b *strings.Builder, defs []index.Hit) {
	done := map[string]bool{}
	prose := map[string]tools.Prose{}
	for _, d := range defs {
		name := d.Symbol
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if done[name] || len(done) == 2 || (d.Kind != "func" && d.Kind != "method" && d.Kind != "function") {
			continue
		}
		done[name] = true
		dir := path.Dir(d.Path)
		glob := dir + "/**"
		if dir == "." {
			glob = ""
		}
		pattern := `\b` + regexp.QuoteMeta(name) + `\(`
		t0 := time.Now()
		ms, err := r.src.Grep(ctx, pattern, glob, 50)
		uses := r.callSites(ms, d, name, prose)
		// Calls in the definition's own folder first.
		sort.SliceStable(uses, func(i, j int) bool {
			return path.Dir(uses[i].Path) == dir && path.Dir(uses[j].Path) != dir
		})
		if len(uses) > maxUses {
			uses = uses[:maxUses]
		}
		step := tools.Step{Tool: "grep", Args: map[string]any{"pattern": pattern, "path_glob": glob}, Summary: fmt.Sprintf("%d matches", len(ms)), MS: msSince(t0)}
		if err != nil {
			step.Summary = "error: " + err.Error()
		}
		r.record(step, tools.Describe("grep", tools.Args{"pattern": pattern, "path_glob": glob}))
		if len(uses) == 0 {
			continue
		}
		where := dir
		if glob == "" {
			where = "the workspace"
		}
		fmt.Fprintf(b, "\n### Calls of %s in %s (code only, tests left out)\n\n", name, where)
		for _, m := range uses {
			r.writeCitedLine(b, m.Path, m.Line, "")
		}
	}
}

// writeCitedLine cites one line of a file and writes it as an entry of a
// list of call sites: "- path:line: `code` [n]", with note (when not
// empty) before the marker. ok is false when the line cannot be read.
func (r *run) writeCitedLine(b *strings.Builder, p string, line int, note string) (id int, ok bool) {
	f, err := r.tb.File(p)
	if err != nil {
		return 0, false
	}
	text, ok := f.Lines(line, line)
	if !ok {
		return 0, false
	}
	id = r.reg.Add(p, line, line, text, "")
	if note != "" {
		note = " " + note
	}
	fmt.Fprintf(b, "- %s:%d: %s%s [%d]\n", p, line, codeSpan(strings.TrimSpace(tools.CutLine(strings.TrimSuffix(text, "\n")))), note, id)
	return id, true
}

// callSites keeps the grep matches that are calls in code: not in a test
// file, not the definition itself, and with at least one match of
// "name(" outside comments and strings that calls d
// (tools.RefQuery.Matches: for a Go package-level function, not
// another value's method of that name).
func (r *run) callSites(ms []index.GrepMatch, d index.Hit, name string, prose map[string]tools.Prose) []index.GrepMatch {
	var uses []index.GrepMatch
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\(`)
	def, _ := r.tb.File(d.Path)
	q := tools.RefQueryFor(d, def, true)
	for _, m := range ms {
		if tools.IsTestPath(m.Path) || (m.Path == d.Path && m.Line >= d.Start && m.Line <= d.End) {
			continue
		}
		f, err := r.tb.File(m.Path)
		if err != nil {
			continue
		}
		pr, ok := prose[m.Path]
		if !ok {
			pr = tools.ScanProse(m.Path, f.Content())
			prose[m.Path] = pr
		}
		text, ok := f.Lines(m.Line, m.Line)
		if !ok {
			continue
		}
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if q.Matches(text, []int{loc[0], loc[0] + len(name)}, m.Path) && !pr.In(m.Line, loc[0]) {
				uses = append(uses, m)
				break
			}
		}
	}
	return uses
}
