package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// maxToolReferences caps the occurrences the find_references tool lists;
// the count covers all.
const maxToolReferences = 40

// findReferencesTool is the find_references tool: every occurrence of a
// name in code across the workspace (calls only when asked), counted and
// listed by folder, each line evidence.
func (tb *Box) findReferencesTool(ctx context.Context, a Args) (string, string, error) {
	name, err := a.str("name", true)
	if err != nil {
		return "", "", err
	}
	calls, err := a.boolean("calls")
	if err != nil {
		return "", "", err
	}
	tests, err := a.boolean("tests")
	if err != nil {
		return "", "", err
	}
	impl, err := a.boolean("implementations")
	if err != nil {
		return "", "", err
	}
	if impl {
		return tb.implementationsTool(ctx, strings.TrimSpace(name), tests)
	}
	q := tb.refQueryNamed(strings.TrimSpace(name), calls)
	q.Tests = tests
	refs, err := ReferencesOf(ctx, tb.src, tb, q)
	if err != nil {
		return "", "", fmt.Errorf("find_references %q: %w", name, err)
	}
	one := "use"
	if calls {
		one = "call site"
	}
	where := "code only, tests left out"
	if tests {
		where = "code only, tests included"
	}
	summary := fmt.Sprintf("%s in %s", Plural(len(refs.Sites), one), Plural(refs.Files, "file"))
	if len(refs.Sites) == 0 {
		return fmt.Sprintf("no %ss of %q in code (%s)", one, name, where), summary, nil
	}
	var w strings.Builder
	floor := ""
	if refs.Capped {
		floor = "at least "
	}
	fmt.Fprintf(&w, "%s%s (%s)", floor, summary, where)
	if len(refs.Sites) > maxToolReferences {
		fmt.Fprintf(&w, "; the first %d", maxToolReferences)
	}
	w.WriteString(":\n")
	prevDir, shown := "", 0
	for _, s := range refs.Sites {
		if shown == maxToolReferences || w.Len() > maxToolChars {
			w.WriteString("(more not shown: ask for calls only, or grep a folder)\n")
			break
		}
		f, err := tb.File(s.Path)
		if err != nil {
			continue
		}
		text, ok := f.Lines(s.Line, s.Line)
		if !ok {
			continue
		}
		if dir := path.Dir(s.Path); dir != prevDir {
			fmt.Fprintf(&w, "%s/\n", dir)
			prevDir = dir
		}
		id := tb.reg.Add(s.Path, s.Line, s.Line, text, "")
		fmt.Fprintf(&w, "[%d] %s:%d:%d: %s\n", id, s.Path, s.Line, s.Col+1, CutLine(strings.TrimSpace(strings.TrimSuffix(text, "\n"))))
		shown++
	}
	return w.String(), summary, nil
}

// refQueryNamed is the reference query for a name as a caller writes it:
// "WithCancel", "context.WithCancel" (a Go package's name) or
// "Server.Shutdown" (a method). When it names one definition outside
// tests, the definition's own lines are left out and a Go package-level
// name must be qualified outside its package.
func (tb *Box) refQueryNamed(name string, calls bool) RefQuery {
	return tb.refQueryAt(name, calls, "", 0)
}

// RefQueryAt is the reference query for the identifier name (bare, or
// qualified as "context.WithCancel") written at line of file p (an index
// path; "" when unknown): the definition declared there, else the one
// definition of that name, else the bare name alone.
func RefQueryAt(snap *index.Snapshot, name, p string, line int) RefQuery {
	return NewBox(snap, citations.NewRegistry()).refQueryAt(name, false, p, line)
}

// definitionsOf are the definitions outside tests that name (bare, or
// qualified as "context.WithCancel" or "Server.Shutdown") written at
// line of file p ("" when unknown) may mean: the one declared there, else
// every one of that name.
func (tb *Box) definitionsOf(name, p string, line int) []index.Symbol {
	parts := strings.Split(name, ".")
	bare, qual := parts[len(parts)-1], ""
	if len(parts) > 1 {
		qual = parts[len(parts)-2]
	}
	var defs []index.Symbol
	for _, s := range tb.src.Symbols(bare, 200) {
		if s.Name != bare || IsTestPath(s.Path) {
			continue
		}
		if qual != "" && s.Container != qual && (s.Container != "" || path.Base(path.Dir(s.Path)) != qual) {
			continue
		}
		defs = append(defs, s)
	}
	for _, d := range defs {
		if p != "" && d.Path == p && line >= d.Line && line <= max(d.EndLine, d.Line) && d.Kind != "package" {
			defs = []index.Symbol{d} // the definition at the cursor; the innermost is last
		}
	}
	return defs
}

// refQueryAt is RefQueryAt for a Box.
func (tb *Box) refQueryAt(name string, calls bool, p string, line int) RefQuery {
	bare := name[strings.LastIndexByte(name, '.')+1:]
	defs := tb.definitionsOf(name, p, line)
	if len(defs) != 1 {
		return RefQuery{Name: bare, Calls: calls}
	}
	s := defs[0]
	f, _ := tb.File(s.Path)
	start := s.Line
	if f != nil {
		start = unit.DocStart(f, s.Line)
	}
	q := RefQueryFor(index.Hit{Path: s.Path, Start: start, End: max(s.EndLine, s.Line), Symbol: s.QualifiedName(), Kind: s.Kind}, f, calls)
	q.DeclPath, q.DeclLine = s.Path, s.Line
	return q
}

// boolean returns a boolean argument, false when absent. "true" and
// "false" as strings are accepted (small models send them).
func (a Args) boolean(name string) (bool, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return false, nil
	}
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "1":
			return true, nil
		case "false", "no", "0", "":
			return false, nil
		}
	}
	return false, fmt.Errorf("argument %q must be true or false, got %v", name, v)
}
