package retrieval

import (
	"fmt"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/thread"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/index"
)

// followed is the earlier evidence a retrieval follow-up builds on: the
// main cited span of the newest turn that cited anything (its first
// citation naming a symbol, else its first citation). A question that
// names identifiers of its own builds on nothing earlier.
func (r *run) followed() (thread.Evidence, bool) {
	th := r.prior
	if th == nil || len(identifiers(r.q.Text)) > 0 {
		return thread.Evidence{}, false
	}
	for i := len(th.Turns) - 1; i >= 0; i-- {
		var first *thread.Evidence
		for _, n := range th.Turns[i].Evidence {
			if n < 1 || n > len(th.Evidence) {
				continue
			}
			e := &th.Evidence[n-1]
			if e.Symbol != "" {
				return *e, true
			}
			if first == nil {
				first = e
			}
		}
		if first != nil {
			return *first, true
		}
	}
	return thread.Evidence{}, false
}

// searchText is what a retrieval answer searches for: the question, and
// for a follow-up that names nothing itself, the name of the symbol it
// builds on ("who calls that?" searches for that too).
func (r *run) searchText() string {
	if e, ok := r.followed(); ok && e.Symbol != "" {
		return r.q.Text + " " + tools.SymbolName(e.Symbol)
	}
	return r.q.Text
}

// followDefs is the current definition of the symbol a follow-up builds
// on, found by name in its file (it may have moved), as a hit over the
// whole unit with its doc comment.
func (r *run) followDefs() []index.Hit {
	e, ok := r.followed()
	if !ok || e.Symbol == "" {
		return nil
	}
	t0 := time.Now()
	name := tools.SymbolName(e.Symbol)
	var best *index.Symbol
	syms := r.src.Symbols(name, 200)
	for i, s := range syms {
		if s.Path != e.Path || s.Name != name || (s.QualifiedName() != e.Symbol && s.Name != e.Symbol) {
			continue
		}
		if best == nil || abs(s.Line-e.Start) < abs(best.Line-e.Start) {
			best = &syms[i]
		}
	}
	found := 0
	var out []index.Hit
	if best != nil {
		if f, err := r.tb.File(best.Path); err == nil {
			out = append(out, index.Hit{Path: best.Path, Start: unit.DocStart(f, best.Line), End: max(best.EndLine, best.Line), Symbol: best.QualifiedName(), Kind: best.Kind, Language: best.Language})
			found++
		}
	}
	step := tools.Step{Tool: "find_symbol", Args: map[string]any{"name": e.Symbol}, Summary: fmt.Sprintf("%d definitions", found), MS: msSince(t0)}
	r.record(step, tools.Describe("find_symbol", tools.Args{"name": e.Symbol}))
	return out
}

// buildsOn is the line that says which earlier citation a retrieval
// follow-up builds on; its marker is the thread's evidence number, checked
// like any citation (stale when those lines changed since).
func (r *run) buildsOn() string {
	e, ok := r.followed()
	if !ok {
		return ""
	}
	// The marker is the reference: a path:lines written out would become
	// a second marker of the same span.
	if e.Symbol != "" {
		return fmt.Sprintf("Following up on `%s` from the previous answer [%d].\n", e.Symbol, e.N)
	}
	return fmt.Sprintf("Following up on the code the previous answer cited first [%d].\n", e.N)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
