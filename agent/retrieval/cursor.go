package retrieval

import (
	"strings"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/index"
)

// deicticWords are the words with which a question points at the code in
// front of the person: "what does this do", "why is this here".
var deicticWords = map[string]bool{"this": true, "these": true, "here": true, "cursor": true, "selected": true, "selection": true}

// cursorContext is the unit at the cursor when the question is about it:
// it points at it ("what does this do?"), or the unit holds at least
// half of the question's terms (one common word, such as "string", is
// not enough). Otherwise the cursor is only where the person stood when
// they asked ("how does the tar reader parse PAX headers", asked from
// context.go), and its unit is not cited first.
func (r *run) cursorContext(terms []unit.Term) []index.Hit {
	at := r.atCursor()
	if len(at) == 0 {
		return nil
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(r.q.Text), func(c rune) bool {
		return !(c >= 'a' && c <= 'z')
	}) {
		if deicticWords[w] {
			return at
		}
	}
	if len(terms) == 0 {
		return at // nothing to match: the question can only be about where it was asked
	}
	h := at[0]
	f, err := r.tb.File(h.Path)
	if err != nil {
		return nil
	}
	if 2*len(unit.NewFileTerms(f, h.Path, terms).Has(h.Start, h.End)) >= len(terms) {
		return at
	}
	return nil
}
