package retrieval

import (
	"fmt"
	"os"
	"testing"

	"github.com/askls/askls/agent/unit"
	"github.com/askls/askls/citations"
)

// basket reads testdata/basket.py: a class whose method total has a
// decorator and a long docstring.
func basket(t *testing.T, question string) (*unit.FileTerms, []float64) {
	t.Helper()
	text, err := os.ReadFile("testdata/basket.py")
	if err != nil {
		t.Fatal(err)
	}
	terms := unit.QuestionTerms(question)
	w := make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	return unit.NewFileTerms(citations.NewLineIndex(text), "shop/basket.py", terms), w
}

// shown is the lines out[i] cites, as cite shows them: an excerpt for
// the first ShownEntries, else the span.
func shown(e entry, i int) (int, int) {
	if i < ShownEntries {
		return unit.Excerpt(e.ft, e.u, e.sp, e.weights)
	}
	return e.sp.Start, e.sp.End
}

// A class's excerpt may leave its span for its code, and its code is its
// methods: the class's window over the docstring of a method already
// cited is not cited again under the class's name (werkzeug's class
// Request over Request.files).
func TestAContainersExcerptOverACitedMemberIsLeftOut(t *testing.T) {
	ft, w := basket(t, "how is the price of a basket computed with the discount of each coupon?")
	mk := func(sym string, start, end int, sp unit.Span, score float64) *entry {
		u := unit.Unit{Path: "shop/basket.py", Start: start, End: end, Decl: start, Symbol: sym, Kind: "method"}
		return &entry{u: u, sp: sp, ft: ft, weights: w, score: score}
	}
	total := mk("Basket.total", 29, 46, unit.Span{Start: 29, End: 46}, 1)
	total.top = true
	class := mk("Basket", 4, 73, unit.Span{Start: 64, End: 73}, 0.9) // the receipt's lines
	class.u.Kind = "class"
	discount := mk("Basket._discount", 48, 63, unit.Span{Start: 48, End: 63}, 0.5)
	if s, e := unit.Excerpt(ft, class.u, class.sp, w); e < 30 || s > 46 {
		t.Fatalf("the class's excerpt %d-%d is not on total's lines: the fixture tests nothing", s, e)
	}
	c := &chooser{cands: []*entry{total, class, discount}}
	out, _ := c.pick()
	var got []string
	for i, e := range out {
		s, end := shown(e, i)
		got = append(got, fmt.Sprintf("%s:%d-%d", e.u.Symbol, s, end))
		if e.u.Symbol == "Basket" && end >= 28 && s <= 46 {
			t.Errorf("the class cites total's lines %d-%d", s, end)
		}
	}
	if len(out) < 2 || out[0].u.Symbol != "Basket.total" || out[1].u.Symbol != "Basket._discount" {
		t.Errorf("cited %v, want total, then _discount", got)
	}
}

// A method's decorator is its own: a class's window that ends on the
// decorator of a method already cited is the method's line, not the
// class's.
func TestAContainersWindowOverACitedMembersDecoratorIsLeftOut(t *testing.T) {
	ft, w := basket(t, "basket")
	w[0] = 0 // no term: each excerpt is its span
	total := &entry{u: unit.Unit{Path: "shop/basket.py", Start: 29, End: 46, Decl: 29}, sp: unit.Span{Start: 29, End: 40}, ft: ft, weights: w, score: 1, top: true}
	over := &entry{u: unit.Unit{Path: "shop/basket.py", Start: 4, End: 73, Decl: 4}, sp: unit.Span{Start: 20, End: 28}, ft: ft, weights: w, score: 0.9}
	c := &chooser{cands: []*entry{total, over}}
	if out, _ := c.pick(); len(out) != 1 {
		t.Errorf("%d entries: the class's lines 20-28 were cited over total's decorator", len(out))
	}
}
