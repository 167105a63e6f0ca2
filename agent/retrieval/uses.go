package retrieval

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/rank"

	"github.com/askls/askls/index"
)

// maxCitedUses is how many call sites or uses an answer about callers
// cites; the rest are counted by folder.
const maxCitedUses = 10

// asksForUses: the question asks where something is used or referenced
// (every occurrence), rather than who calls it.
func asksForUses(q string) bool {
	for _, w := range strings.Fields(strings.ToLower(rank.WithoutQuotes(q))) {
		switch strings.Trim(w, ".,?!:;\"'`") {
		case "used", "uses", "usage", "usages", "references", "referenced", "use":
			return true
		}
	}
	return false
}

// writeAllUses answers "who calls that?" and "where is it used?" about
// the first definition the answer cites: every occurrence of its name in
// the workspace's code (calls only, unless the question asks for uses),
// counted, grouped by folder, the first maxCitedUses cited.
// It returns the evidence numbers it cited and the occurrences it
// counted; listed is false when it listed none (no definition, or the
// search failed).
func (r *run) writeAllUses(ctx context.Context, b *strings.Builder, defs []index.Hit) (cited map[int]bool, sites []tools.Reference, listed bool) {
	cited = map[int]bool{}
	uses := asksForUses(r.q.Text)
	var d index.Hit
	found := false
	for _, h := range defs {
		if uses || h.Kind == "func" || h.Kind == "method" || h.Kind == "function" {
			d, found = h, true
			break
		}
	}
	if !found {
		return cited, nil, false
	}
	f, _ := r.tb.File(d.Path)
	q := tools.RefQueryFor(d, f, !uses)
	t0 := time.Now()
	refs, err := tools.ReferencesOf(ctx, r.src, r.tb, q)
	what, one := "Calls", "call site"
	if uses {
		what, one = "Uses", "use"
	}
	step := tools.Step{Tool: "find_references", Args: map[string]any{"name": q.Name, "calls": q.Calls}, Summary: fmt.Sprintf("%d %ss in %d files", len(refs.Sites), one, refs.Files), MS: msSince(t0)}
	if err != nil {
		step.Summary = "error: " + err.Error()
	}
	r.record(step, tools.Describe("find_references", tools.Args{"name": q.Name}))
	if err != nil {
		return cited, nil, false
	}
	name := q.Name
	if q.Qualifier != "" {
		name = q.Qualifier + "." + name
	}
	fmt.Fprintf(b, "\n### %s of %s in the workspace (code only, tests left out)\n\n", what, codeSpan(name))
	if len(refs.Sites) == 0 {
		fmt.Fprintf(b, "No %s of it in code outside tests.\n", one+"s")
		return cited, refs.Sites, true
	}
	r.writeSiteList(b, cited, oncePerLine(refs.Sites), nil, refs.Files, one, refs.Capped)
	return cited, refs.Sites, true
}

// oncePerLine keeps the first of the sites on one line (sites are sorted
// by file and line): `from .exceptions import X as X` names X twice, and
// is one line of code that uses it.
func oncePerLine(sites []tools.Reference) []tools.Reference {
	var out []tools.Reference
	for _, s := range sites {
		if n := len(out); n > 0 && out[n-1].Path == s.Path && out[n-1].Line == s.Line {
			continue
		}
		out = append(out, s)
	}
	return out
}

// writeSiteList writes sites as a counted list grouped by folder, the
// first maxCitedUses cited (their evidence numbers join cited; notes[i],
// when there, follows site i's code), the others counted by folder:
//
//	27 call sites in 17 files; the first 10:
//
//	context/ (1):
//	- context/context.go:638: `return WithCancel(parent)` [2]
//	…
//	The other 17, by folder: net (4), net/http (5), testing (7).
func (r *run) writeSiteList(b *strings.Builder, cited map[int]bool, sites []tools.Reference, notes []string, files int, one string, capped bool) {
	floor := ""
	if capped {
		floor = "at least "
	}
	fmt.Fprintf(b, "%s%s in %s", floor, tools.Plural(len(sites), one), tools.Plural(files, "file"))
	if len(sites) > maxCitedUses {
		fmt.Fprintf(b, "; the first %d:\n", maxCitedUses)
	} else {
		b.WriteString(":\n")
	}
	shown := sites[:min(len(sites), maxCitedUses)]
	perDir := map[string]int{}
	var dirs []string
	for _, s := range sites {
		dir := path.Dir(s.Path)
		if perDir[dir] == 0 {
			dirs = append(dirs, dir)
		}
		perDir[dir]++
	}
	prevDir := ""
	for i, s := range shown {
		if dir := path.Dir(s.Path); dir != prevDir {
			fmt.Fprintf(b, "\n%s (%d):\n", dir+"/", perDir[dir])
			prevDir = dir
		}
		note := ""
		if i < len(notes) {
			note = notes[i]
		}
		if id, ok := r.writeCitedLine(b, s.Path, s.Line, note); ok {
			cited[id] = true
		}
	}
	var rest []string
	restN := 0
	for _, dir := range dirs {
		n := perDir[dir]
		for _, s := range shown {
			if path.Dir(s.Path) == dir {
				n--
			}
		}
		if n > 0 {
			rest = append(rest, fmt.Sprintf("%s (%d)", dir, n))
			restN += n
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(b, "\nThe other %d, by folder: %s.\n", restN, strings.Join(rest, ", "))
	}
}
