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
	f.ix.rank.DelegationShare, f.ix.rank.CalleeShare = 0, 0
	if hits := search(t, f.ix, q); len(hits) > 1 && hits[1].Symbol == "dowait" {
		t.Errorf("without the delegation stage dowait is second too: the fixture proves nothing (%v)", hits)
	}
}

// The first hit holds the question's words and calls the helper that
// does what is asked; the helper names few of them, so other files'
// comments outrank it until the first hit's callees join the page by
// their own score.
func TestSearchLiftsWhatAFirstHitCalls(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_callees.txtar")
	q := "how is the next start time of a periodic job computed after it runs, for a fixed rate and for a fixed delay"
	rankOf := func(hits []Hit, sym string) int {
		for i, h := range hits {
			if h.Symbol == sym {
				return i
			}
		}
		return len(hits)
	}
	hits := search(t, f.ix, q)
	if len(hits) == 0 || hits[0].Symbol != "Run" {
		t.Fatalf("Search(%q) = %v, want Run first", q, hits)
	}
	if a, d := rankOf(hits, "advance"), rankOf(hits, "PeriodicJob"); a > d {
		t.Errorf("advance (%d) after the PeriodicJob declaration (%d): %v", a, d, hits)
	}
	f.ix.rank.CalleeShare = 0
	hits = search(t, f.ix, q)
	if a, d := rankOf(hits, "advance"), rankOf(hits, "PeriodicJob"); a < d {
		t.Errorf("without the callee stage advance (%d) is before PeriodicJob (%d) too: the fixture proves nothing (%v)", a, d, hits)
	}
}

// A package-qualified name of one part (check.Valid) names its package's
// definition: first, above a function of the same package that holds
// more of the question's words and another package's method of that name.
func TestSearchFindsAQualifiedNamesDefinition(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_qualified.txtar")
	q := "how does check.Valid tell a good order from a bad one"
	hits := search(t, f.ix, q)
	if len(hits) == 0 || hits[0].Path != "check/valid.go" || hits[0].Symbol != "Valid" {
		t.Fatalf("Search(%q) = %v, want check/valid.go Valid first", q, hits)
	}
	f.ix.rank.DefinitionBoost = 1
	hits = search(t, f.ix, q)
	if len(hits) > 0 && hits[0].Path == "check/valid.go" {
		t.Errorf("without the definition boost check.Valid is first too: the fixture proves nothing (%v)", hits)
	}
}

// A wrapper's callees follow it only when they hold a word of the
// question: the one that takes a lock says nothing about what is asked.
func TestSearchFollowsAWrapperOnlyToCalleesOfTheQuestion(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_wrapper_callees.txtar")
	q := "how does a submitted job reach an idle worker, and where does it wait when no worker is idle"
	hits := search(t, f.ix, q)
	if len(hits) < 2 || hits[0].Symbol != "Submit" || hits[1].Symbol != "route" {
		t.Fatalf("Search(%q) = %v, want Submit then route", q, hits)
	}
	for i, h := range hits[:min(len(hits), 3)] {
		if h.Symbol == "grab" {
			t.Errorf("Search(%q): the lock's grab at %d among the first hits: %v", q, i, hits)
		}
	}
}
