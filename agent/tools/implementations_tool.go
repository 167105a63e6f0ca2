package tools

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/askls/askls/index"
)

// ImplementersTitle heads the list: what the types do to def.
func ImplementersTitle(def index.Symbol) string {
	switch {
	case def.Language == "go":
		return "Types that implement"
	case def.Kind == "interface" || def.Kind == "trait" || def.Kind == "protocol":
		return "Types that implement or extend"
	}
	return "Types that extend"
}

// QualifiedFor is def's name as code outside its package writes it: a Go
// name with its package's folder name ("io.Reader"), else its own.
func QualifiedFor(def index.Symbol) string {
	if def.Language == "go" {
		if dir := path.Dir(def.Path); dir != "." {
			return path.Base(dir) + "." + def.Name
		}
	}
	return def.Name
}

// implementationsTool is find_references with implementations: the
// types that implement or extend the named type, counted and listed by
// folder, each declaration line evidence.
func (tb *Box) implementationsTool(ctx context.Context, name string, tests bool) (string, string, error) {
	def, ok := tb.implementable(name, "", 0)
	if !ok {
		return fmt.Sprintf("no interface, trait or class named %q outside tests (find_symbol lists what there is)", name), "no such type", nil
	}
	ims, err := ImplementationsOf(ctx, tb.src, tb, def, tests)
	if err != nil {
		return "", "", fmt.Errorf("find_references %q: %w", name, err)
	}
	where := "code only, tests left out"
	if tests {
		where = "code only, tests included"
	}
	summary := fmt.Sprintf("%s in %s", Plural(len(ims.Types), "type"), Plural(ims.Files, "file"))
	of := fmt.Sprintf("%s %s (%s:%d)", def.Kind, QualifiedFor(def), def.Path, def.Line)
	switch {
	case ims.Note != "":
		return fmt.Sprintf("%s is %s", of, ims.Note), summary, nil
	case len(ims.Types) == 0:
		return fmt.Sprintf("no type implements or extends %s (%s)", of, where), summary, nil
	}
	var w strings.Builder
	floor := ""
	if ims.Capped {
		floor = "at least "
	}
	fmt.Fprintf(&w, "%s%s that implement or extend %s (%s)", floor, summary, of, where)
	if len(ims.Types) > maxToolReferences {
		fmt.Fprintf(&w, "; the first %d", maxToolReferences)
	}
	w.WriteString(":\n")
	prevDir := ""
	for i, t := range ims.Types {
		if i == maxToolReferences || w.Len() > maxToolChars {
			w.WriteString("(more not shown: ask for one folder's types with grep)\n")
			break
		}
		f, err := tb.File(t.Path)
		if err != nil {
			continue
		}
		text, ok := f.Lines(t.Line, t.Line)
		if !ok {
			continue
		}
		if dir := path.Dir(t.Path); dir != prevDir {
			fmt.Fprintf(&w, "%s/\n", dir)
			prevDir = dir
		}
		id := tb.reg.Add(t.Path, t.Line, t.Line, text, t.Type)
		fmt.Fprintf(&w, "[%d] %s:%d:%d: %s", id, t.Path, t.Line, t.Col+1, CutLine(strings.TrimSpace(strings.TrimSuffix(text, "\n"))))
		if t.Via != "" {
			fmt.Fprintf(&w, " (through %s)", t.Via)
		}
		w.WriteByte('\n')
	}
	return w.String(), summary, nil
}

// implementable is the interface, trait or class name (bare or
// qualified) written at line of file p ("" when unknown) means: the one
// declared there, else the first of that name (index.Snapshot.Symbols's
// order).
func (tb *Box) implementable(name, p string, line int) (index.Symbol, bool) {
	for _, d := range tb.definitionsOf(name, p, line) {
		if IsImplementable(d) {
			return d, true
		}
	}
	return index.Symbol{}, false
}

// ImplementableAt is the interface, trait or class that the identifier
// name (bare, or qualified as "io.Reader") written at line of file p (an
// index path; "" when unknown) names, for FindImplementations.
func ImplementableAt(snap *index.Snapshot, name, p string, line int) (index.Symbol, bool) {
	return NewBox(snap, nil).implementable(name, p, line)
}
