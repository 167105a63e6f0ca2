package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSearchQualifiedNameAndCoverage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank.txtar")
	for _, c := range []struct{ q, path string }{
		// errs.Is: the Is defined under errs/, not the other Is in a
		// file that says "errs" more often.
		{"how does errs.Is compare an error with its target", "errs/wrap.go"},
		// A question: the chunk holding most of its words wins over a
		// short one whose name holds two of them.
		{"why can a steady flow of new readers not starve a writer that waits on the reader/writer lock", "lock/rw.go"},
	} {
		hits := search(t, f.ix, c.q)
		if len(hits) == 0 || hits[0].Path != c.path {
			t.Errorf("Search(%q) = %v, want %s first", c.q, hits, c.path)
		}
	}
}

func TestSearchDropsQuestionEnglish(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_english.txtar")
	// "e.g.", "i.e." and the head of "doesn't" are in cache/doc.go's
	// comment, not in the function that answers the question.
	q := "which function removes the least recently used entry, e.g. when the cache doesn't have capacity left?"
	hits := search(t, f.ix, q)
	if len(hits) == 0 || hits[0].Path != "cache/evict.go" {
		t.Errorf("Search(%q) = %v, want cache/evict.go first", q, hits)
	}
	q = "How does the scheduler choose the task that runs next?"
	if hits := search(t, f.ix, q); len(hits) == 0 || hits[0].Path != "sched/core.c" {
		t.Errorf("Search(%q) = %v, want sched/core.c first", q, hits)
	} else if slices.ContainsFunc(hits, func(h Hit) bool { return h.Path == "pci/doe.c" }) {
		t.Errorf("Search(%q) = %v: pci/doe.c holds only \"does\" of the question", q, hits)
	}
}

func TestSearchFeedback(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_feedback.txtar")
	// The fixture's words are in doc comments: counted as code
	// (CommentWeight 1), the feedback stage alone orders the two.
	f.ix.rank.CommentWeight = 1
	q := "how does the scheduler choose the next runnable task when its queue is empty"
	order := func() []string {
		var ps []string
		for _, h := range search(t, f.ix, q) {
			ps = append(ps, h.Path)
		}
		return ps
	}
	// Feedback: steal.go shares the best chunk's vocabulary (runq,
	// worker, stealWork), spool.go does not.
	if got := order(); !slices.Equal(got[:3], []string{"sched/pick.go", "sched/steal.go", "print/spool.go"}) {
		t.Errorf("Search(%q) = %v, want pick.go, steal.go, spool.go", q, got)
	}
	// The fixture's premise: without feedback, spool.go comes first.
	f.ix.rank.FeedbackWeight = 0
	if got := order(); !slices.Equal(got[:3], []string{"sched/pick.go", "print/spool.go", "sched/steal.go"}) {
		t.Errorf("without feedback, Search(%q) = %v, want pick.go, spool.go, steal.go", q, got)
	}
}

func TestSearchRankDoesNotDependOnLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank.txtar")
	// A small rerank pool: a limit of 1 then fetches more candidates
	// than the pool; every one of them must be reranked.
	f.ix.rank.RerankPool = 1
	q := "why can a steady flow of new readers not starve a writer that waits on the reader/writer lock"
	all, err := f.ix.Snapshot().Search(context.Background(), q, 10, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3} {
		hits, err := f.ix.Snapshot().Search(context.Background(), q, limit, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			if i >= len(all) || h.Path != all[i].Path || h.Start != all[i].Start || h.Score != all[i].Score {
				t.Errorf("limit %d: hit %d = %s:%d (%.4f), limit 10 had %v", limit, i, h.Path, h.Start, h.Score, all[i])
			}
		}
	}
}

// The windows of one long unit overlap: the first page shows their lines
// once and puts the other windows after every other hit; a larger limit
// still returns them.
func TestPageShowsLinesOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_windows.txtar")
	q := "replay record checksum"
	ranges := func(hits []Hit) (overlaps int, windows int) {
		for i, h := range hits {
			if h.Path == "journal/replay.go" {
				windows++
			}
			for _, o := range hits[:i] {
				if o.Path == h.Path && o.Start <= h.End && h.Start <= o.End {
					overlaps++
					break
				}
			}
		}
		return overlaps, windows
	}
	page, err := f.ix.Snapshot().Search(context.Background(), q, 3, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := ranges(page); n > 0 || len(page) != 3 {
		t.Errorf("first page %v: %d hits over lines shown above, want 3 hits and none", hitRanges(page), n)
	}
	all, err := f.ix.Snapshot().Search(context.Background(), q, 20, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if _, w := ranges(all); w < 3 {
		t.Errorf("limit 20 %v: %d windows of Replay, want every window back (3 or more)", hitRanges(all), w)
	}
}

func hitRanges(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s:%d-%d", h.Path, h.Start, h.End))
	}
	return out
}

// BM25 over the reranked candidates' texts: the function that holds most
// of the question's words, several times each, comes before a one-line
// helper whose name holds two of them.
func TestSearchTextScoreSaturates(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_bm25.txtar")
	q := "what happens to expired sessions in the store when the cleanup timer fires, and how are they removed"
	first := func() string { return firstHit(t, f, q) }
	if got := first(); got != "session/sweep.go:5" {
		t.Errorf("Search(%q) first = %s, want session/sweep.go:5 (sweep)", q, got)
	}
	// The fixture's premise: bleve's score alone puts the helper first.
	f.ix.rank.TextWeight = 0
	if got := first(); got != "session/timer.go:5" {
		t.Errorf("without BM25, Search(%q) first = %s, want session/timer.go:5", q, got)
	}
}

// An identifier part of the workspace that is a prefix of a question's
// word (desc for description, opts for options) counts as the word.
func TestSearchCountsTheWorkspacesAbbreviations(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_abbrev.txtar")
	q := "which line shows the description of a device with its name and model, given the options"
	first := func() string { return firstHit(t, f, q) }
	if got := first(); got != "device/label.go:5" {
		t.Errorf("Search(%q) first = %s, want device/label.go:5 (descLine)", q, got)
	}
	// The fixture's premise: without the abbreviations the neighbour,
	// which holds the question's other words, comes first.
	f.ix.rank.AbbrevWeight = 0
	if got := first(); strings.HasPrefix(got, "device/label.go:") {
		t.Errorf("without abbreviations, Search(%q) first = %s, want another file", q, got)
	}
}

// firstHit is the first hit of q on f's index, as path:start.
func firstHit(t *testing.T, f *fixture, q string) string {
	t.Helper()
	hits := search(t, f.ix, q)
	if len(hits) == 0 {
		t.Fatalf("Search(%q) found nothing", q)
	}
	return fmt.Sprintf("%s:%d", hits[0].Path, hits[0].Start)
}

// A lookup asks for a part of the identifier that many chunks hold in
// their content (Params.LookupPartPostings) in names and paths only.
func TestLookupAsksForCommonPartsInNamesOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_lookup_parts.txtar")
	files := func() []string { return firstFiles(search(t, f.ix, "maxTokenSize")) }
	if got := files(); !slices.Contains(got, "notes/limits.go") {
		t.Fatalf("files = %v, want notes/limits.go among them (its comment holds the parts)", got)
	}
	f.ix.rank.LookupPartPostings = 1 // every part common
	if got := files(); len(got) == 0 || got[0] != "scan/scan.go" || slices.Contains(got, "notes/limits.go") {
		t.Errorf("with every part common, files = %v, want scan/scan.go alone", got)
	}
}

// A term in a doc comment counts less than one in code
// (Params.CommentWeight): the method that removes the oldest entry comes
// before the public method whose comment describes it at length.
func TestSearchCodeOverItsDocComment(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_comments.txtar")
	q := "when the cache is full, where is the oldest entry removed and the listener told"
	first := func() string { return firstHit(t, f, q) }
	if got := first(); !strings.HasPrefix(got, "cache/Store.java:") {
		t.Errorf("Search(%q) first = %s, want cache/Store.java", q, got)
	}
	// The fixture's premise: comments counted alike, the comment wins.
	f.ix.rank.CommentWeight = 1
	if got := first(); !strings.HasPrefix(got, "cache/Cache.java:") {
		t.Errorf("with comments counted alike, Search(%q) first = %s, want cache/Cache.java", q, got)
	}
}

// Explain gives the plan a search makes: the terms, and the
// workspace's abbreviations of the plain words.
func TestExplainNamesTheAbbreviations(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "rank_abbrev.txtar")
	qp, err := f.ix.Snapshot().Explain(context.Background(), "which line shows the description of a device")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(qp.Abbrevs["descript"], "desc") || qp.Lookup {
		t.Errorf("Explain = %+v, want descript abbreviated as desc, not a lookup", qp)
	}
	if s := qp.String(); !strings.Contains(s, "abbreviated descript→desc") {
		t.Errorf("String() = %q", s)
	}
}
