package index

import (
	"testing"
)

// A file that says it is generated ranks below hand-written code that
// holds the same words (Ranking.GeneratedFactor), in a fresh index and
// after a restart reads the flag from the manifest.
func TestSearchGeneratedCodeBelowWrittenCode(t *testing.T) {
	t.Parallel()
	root := writeTxtar(t, "generated.txtar")
	cache := t.TempDir()
	q := "where is a body sent in chunks prefixed by its length in hex decoded"
	for _, run := range []string{"fresh", "reopened"} {
		f := openFixture(t, root, cache)
		hits := search(t, f.ix, q)
		f.ix.Close()
		if len(hits) < 2 || hits[0].Path != "h1/chunked.go" || hits[1].Path != "h2/bundle.go" {
			t.Fatalf("%s: Search(%q) = %v, want h1/chunked.go, then h2/bundle.go", run, q, hits)
		}
	}
}
