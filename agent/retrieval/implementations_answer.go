package retrieval

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"

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
		name := tools.SymbolName(h.Symbol)
		if name == "" {
			continue
		}
		for _, s := range tools.SymbolsNamed(r.src, name) {
			if s.Path == h.Path && s.Line >= h.Start && s.Line <= h.End && tools.IsImplementable(s) {
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
	ims, err := tools.ImplementationsOf(ctx, r.src, r.tb, def, false)
	step := tools.Step{Tool: "find_references", Args: map[string]any{"name": def.Name, "implementations": true},
		Summary: fmt.Sprintf("%s in %s", tools.Plural(len(ims.Types), "type"), tools.Plural(ims.Files, "file")), MS: msSince(t0)}
	if err != nil {
		step.Summary = "error: " + err.Error()
	}
	r.record(step, tools.Describe("find_references", tools.Args{"name": def.Name, "implementations": true}))
	if err != nil {
		return cited
	}
	fmt.Fprintf(b, "\n### %s %s in the workspace (code only, tests left out)\n\n", tools.ImplementersTitle(def), codeSpan(tools.QualifiedFor(def)))
	if ims.Note != "" {
		fmt.Fprintf(b, "%s is %s.\n", codeSpan(def.Name), ims.Note)
		return cited
	}
	if len(ims.Types) == 0 {
		b.WriteString("No type in code outside tests implements or extends it.\n")
		return cited
	}
	sites := make([]tools.Reference, len(ims.Types))
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
