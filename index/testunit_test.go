package index

import "testing"

// The units of a Rust file's test module are tests: ranked below the
// code they test, and left out by Filter.NoTests.
func TestRustTestModuleIsTests(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_rust_tests.txtar")
	q := "how are nested groups deeper than the limit refused"
	hits := search(t, f.ix, q)
	if len(hits) == 0 || hits[0].Symbol != "parse_groups" {
		t.Fatalf("Search(%q) = %v, want parse_groups first", q, hits)
	}
	f.ix.rank.TestFactor = 1
	if hits := search(t, f.ix, q); len(hits) > 0 && hits[0].Symbol == "parse_groups" {
		t.Errorf("without the test prior parse_groups is first too: the fixture proves nothing (%v)", hits)
	}
	hits, err := f.ix.Snapshot().Search(t.Context(), q, 10, Filter{NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Symbol != "parse_groups" {
			t.Errorf("NoTests kept %s %s:%d-%d", h.Symbol, h.Path, h.Start, h.End)
		}
	}
}
