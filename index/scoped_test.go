package index

import "testing"

// A name written with "::" names the method of the type named like its
// qualifier (a C++ method defined out of class, a Rust method in an
// impl): first, above the other type's method of that name and a unit
// that holds more of the question's words.
func TestSearchFindsAScopedNamesDefinition(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_scoped.txtar")
	for _, c := range []struct{ q, path, symbol string }{
		{"how does canvas::stroke lay the paint along a path", "src/canvas.cc", "canvas.stroke"},
		{"what does Kettle::brew give back of the leaves and the water", "src/kettle.rs", "Kettle.brew"},
	} {
		hits := search(t, f.ix, c.q)
		if len(hits) == 0 || hits[0].Path != c.path || hits[0].Symbol != c.symbol {
			t.Errorf("Search(%q) = %v, want %s %s first", c.q, hits, c.path, c.symbol)
		}
	}
}
