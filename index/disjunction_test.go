package index

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// sameScoreQueries are lookups, questions, quoted phrases and filters,
// each searched with disjunctionQuery and with bleve's DisjunctionQuery.
var sameScoreQueries = []struct {
	q string
	f Filter
}{
	{q: "Rerank"}, {q: "Params.Priors"}, {q: "rank.Cand"}, {q: "coverage"},
	{q: "how is the score of a candidate combined with its text score"},
	{q: "where are the terms of a question weighed by how rare they are in the pool"},
	{q: "which function cuts an identifier into its parts"},
	{q: "how does the cache evict the oldest entry when it is full"},
	{q: `"comment line"`}, {q: `"best chunk" file`},
	{q: "how are test files ranked below the code", f: Filter{NoTests: true}},
	{q: "narrow a merged chunk to one unit", f: Filter{PathGlob: "*.go"}},
	{q: "proximity of adjacent words", f: Filter{Languages: []string{"go"}}},
	{q: "where is the documentation of the ranking explained"},
}

// TestDisjunctionScoresAsBleve searches the same plans with
// disjunctionQuery (keyedDisjunction) and with bleve's DisjunctionQuery:
// the same hits in the same order with bit for bit the same scores.
func TestDisjunctionScoresAsBleve(t *testing.T) {
	for _, root := range []string{"../rank", writeTxtar(t, "rank_english.txtar"), writeTxtar(t, "rank_abbrev.txtar")} {
		f := openFixture(t, root, t.TempDir())
		t.Cleanup(func() { f.ix.Close() })
		for _, c := range sameScoreQueries {
			compareWithBleve(t, f.ix.Snapshot(), c.q, c.f)
		}
	}
}

// TestDisjunctionScoresAsBleveOnATree does the same on the tree of
// ASKLS_BENCH_ROOT (its index in ASKLS_BENCH_CACHE) for each line of the
// file ASKLS_SAME_SCORES_QUERIES; skipped without them:
//
//	ASKLS_BENCH_ROOT=$root ASKLS_BENCH_CACHE=DIR ASKLS_SAME_SCORES_QUERIES=FILE \
//	  go test -run DisjunctionScoresAsBleveOnATree ./index/
func TestDisjunctionScoresAsBleveOnATree(t *testing.T) {
	root, cache, file := os.Getenv("ASKLS_BENCH_ROOT"), os.Getenv("ASKLS_BENCH_CACHE"), os.Getenv("ASKLS_SAME_SCORES_QUERIES")
	if root == "" || cache == "" || file == "" {
		t.Skip("ASKLS_BENCH_ROOT, ASKLS_BENCH_CACHE and ASKLS_SAME_SCORES_QUERIES name a tree, its index and the queries")
	}
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f := openFixture(t, root, cache)
	defer f.ix.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if sc.Text() != "" {
			compareWithBleve(t, f.ix.Snapshot(), sc.Text(), Filter{})
		}
	}
}

// compareWithBleve runs q's query on every root of s both ways, as
// candidates does, and fails where a hit or a score differs.
func compareWithBleve(t *testing.T, s *Snapshot, q string, f Filter) {
	t.Helper()
	p, err := parseQuery(q, f)
	if err != nil {
		t.Fatal(err)
	}
	p.DropNames(s.ix.projectNames)
	p.Abbrevs = s.abbrevsOf(context.Background(), p.Plan, s.ix.rank.AbbrevMinLen)
	ours := s.boolQuery(p, f)
	theirs := *ours
	if d, ok := ours.Should.(*disjunctionQuery); ok {
		theirs.Should = query.NewDisjunctionQuery(d.clauses)
	} else if ours.Should != nil {
		t.Fatalf("%q: the should clauses are a %T", q, ours.Should)
	}
	shapes := map[string][2]query.Query{
		"query": {ours, &theirs},
		// Inside a conjunction, as with a glob or a question about
		// documentation: Advance.
		"with prose": {query.NewConjunctionQuery([]query.Query{ours, proseQuery()}),
			query.NewConjunctionQuery([]query.Query{&theirs, proseQuery()})},
		"go only": {query.NewConjunctionQuery([]query.Query{termQuery("go", "lang", 1), ours}),
			query.NewConjunctionQuery([]query.Query{termQuery("go", "lang", 1), &theirs})},
	}
	for _, r := range s.ix.roots {
		for shape, qs := range shapes {
			compareTop(t, r.bi, q, shape, qs[0], qs[1], 1_000_000)
		}
		// The whole query, pruned to the top n (disjunction_prune.go).
		for _, n := range []int{1, 3, 10, 50, 200} {
			compareTop(t, r.bi, q, fmt.Sprintf("pruned to %d", n), pruned(ours, ours, n), &theirs, n)
		}
	}
}

// compareTop fails where the first n hits of a and b differ.
func compareTop(t *testing.T, bi bleve.Index, q, shape string, qa, qb query.Query, n int) {
	t.Helper()
	a, b := searchTop(t, bi, qa, n), searchTop(t, bi, qb, n)
	if len(a) != len(b) {
		t.Fatalf("%q (%s): %d hits, bleve's disjunction %d", q, shape, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%q (%s): hit %d is %v, bleve's disjunction %v", q, shape, i, a[i], b[i])
		}
	}
}

type scoredID struct {
	id    string
	score float64
}

// searchTop returns the first n hits of q, best first.
func searchTop(t *testing.T, bi bleve.Index, q query.Query, n int) []scoredID {
	t.Helper()
	res, err := bi.SearchInContext(context.Background(), bleve.NewSearchRequestOptions(q, n, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]scoredID, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = scoredID{h.ID, h.Score}
	}
	return out
}
