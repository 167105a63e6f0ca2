package agent

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/askls/askls/index"
)

// asksForImplementations: the question asks which types implement,
// satisfy, extend or inherit from something, or for its implementations,
// subclasses or subtypes. It is answered so only when it is about a
// definition that can have them (implementableDef): "how is it
// implemented?" about a function is not such a question.
func asksForImplementations(q string) bool {
	ws := strings.Fields(strings.ToLower(q))
	for i, w := range ws {
		switch strings.Trim(w, ".,?!:;\"'`()") {
		case "implement", "implements", "implementing", "implementations", "implementers", "implementors",
			"satisfy", "satisfies", "satisfying",
			"subclass", "subclasses", "subclassed", "subclassing", "subtype", "subtypes",
			"extend", "extends", "extending", "inherit", "inherits", "inheriting", "derive", "derives", "derived":
			return true
		case "implemented", "extended", "inherited", "overridden":
			if i+1 < len(ws) && strings.Trim(ws[i+1], ".,?!:;\"'`") == "by" {
				return true // "implemented by", not "how is it implemented?"
			}
		}
	}
	return false
}

// implementableDef is the first of the answer's definitions (or the
// unit at the cursor) that is an interface, a trait or a class: its
// symbol, found again by name in its lines.
func (r *run) implementableDef(first []index.Hit) (index.Symbol, bool) {
	for _, h := range first {
		name := symbolName(h.Symbol)
		if name == "" {
			continue
		}
		for _, s := range symbolsNamed(r.src, name) {
			if s.Path == h.Path && s.Line >= h.Start && s.Line <= h.End && isImplementable(s) {
				return s, true
			}
		}
	}
	return index.Symbol{}, false
}

// writeImplementations answers "what implements that?" about def: every
// type of the workspace's code that implements or extends it, counted,
// grouped by folder, the first maxCitedUses cited on their declaration's
// line. It returns the evidence numbers it cited.
func (r *run) writeImplementations(ctx context.Context, b *strings.Builder, def index.Symbol) map[int]bool {
	cited := map[int]bool{}
	t0 := time.Now()
	ims, err := findImplementations(ctx, r.src, r.tb, def, false)
	step := Step{Tool: "find_references", Args: map[string]any{"name": def.Name, "implementations": true},
		Summary: fmt.Sprintf("%s in %s", plural(len(ims.Types), "type"), plural(ims.Files, "file")), MS: msSince(t0)}
	if err != nil {
		step.Summary = "error: " + err.Error()
	}
	r.recordStep(step)
	r.res.Stats.ToolCalls++
	r.searched = append(r.searched, describeCall("find_references", args{"name": def.Name, "implementations": true}))
	if err != nil {
		return cited
	}
	fmt.Fprintf(b, "\n### %s %s in the workspace (code only, tests left out)\n\n", implementersTitle(def), codeSpan(qualifiedFor(def)))
	if ims.Note != "" {
		fmt.Fprintf(b, "%s is %s.\n", codeSpan(def.Name), ims.Note)
		return cited
	}
	if len(ims.Types) == 0 {
		b.WriteString("No type in code outside tests implements or extends it.\n")
		return cited
	}
	sites := make([]Reference, len(ims.Types))
	notes := make([]string, len(ims.Types))
	for i, t := range ims.Types {
		sites[i] = t.Reference
		if t.Via != "" {
			notes[i] = "(through " + codeSpan(t.Via) + ")"
		}
	}
	r.writeSiteList(b, cited, sites, notes, ims.Files, "type", ims.Capped)
	return cited
}

// implementersTitle heads the list: what the types do to def.
func implementersTitle(def index.Symbol) string {
	switch {
	case def.Language == "go":
		return "Types that implement"
	case def.Kind == "interface" || def.Kind == "trait" || def.Kind == "protocol":
		return "Types that implement or extend"
	}
	return "Types that extend"
}

// qualifiedFor is def's name as code outside its package writes it: a Go
// name with its package's folder name ("io.Reader"), else its own.
func qualifiedFor(def index.Symbol) string {
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
func (tb *toolbox) implementationsTool(ctx context.Context, name string, tests bool) (string, string, error) {
	def, ok := tb.implementable(name, "", 0)
	if !ok {
		return fmt.Sprintf("no interface, trait or class named %q outside tests (find_symbol lists what there is)", name), "no such type", nil
	}
	ims, err := findImplementations(ctx, tb.src, tb, def, tests)
	if err != nil {
		return "", "", fmt.Errorf("find_references %q: %w", name, err)
	}
	where := "code only, tests left out"
	if tests {
		where = "code only, tests included"
	}
	summary := fmt.Sprintf("%s in %s", plural(len(ims.Types), "type"), plural(ims.Files, "file"))
	of := fmt.Sprintf("%s %s (%s:%d)", def.Kind, qualifiedFor(def), def.Path, def.Line)
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
		f, err := tb.file(t.Path)
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
		fmt.Fprintf(&w, "[%d] %s:%d:%d: %s", id, t.Path, t.Line, t.Col+1, cutLine(strings.TrimSpace(strings.TrimSuffix(text, "\n"))))
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
func (tb *toolbox) implementable(name, p string, line int) (index.Symbol, bool) {
	for _, d := range tb.definitionsOf(name, p, line) {
		if isImplementable(d) {
			return d, true
		}
	}
	return index.Symbol{}, false
}

// ImplementableAt is the interface, trait or class that the identifier
// name (bare, or qualified as "io.Reader") written at line of file p (an
// index path; "" when unknown) names, for FindImplementations.
func ImplementableAt(snap *index.Snapshot, name, p string, line int) (index.Symbol, bool) {
	return newToolbox(snap, nil).implementable(name, p, line)
}
