package index

import "testing"

// A wrapper's doc comment holds the question's words; the function it
// calls does the work, and comes right after it.
func TestSearchFollowsAWrapperToWhatItCalls(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_delegate.txtar")
	q := "when the last party arrives, how are the waiting parties released"
	hits := search(t, f.ix, q)
	if len(hits) < 2 || hits[0].Symbol != "Await" || hits[1].Symbol != "dowait" {
		t.Fatalf("Search(%q) = %v, want Await then dowait", q, hits)
	}
	f.ix.rank.DelegationShare = 0
	if hits := search(t, f.ix, q); len(hits) > 1 && hits[1].Symbol == "dowait" {
		t.Errorf("without the delegation stage dowait is second too: the fixture proves nothing (%v)", hits)
	}
}
