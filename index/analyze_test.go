package index

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
)

// rank analyses a query's words with rank.Terms, the index with
// store.AnalyzeCode: both must give the same terms, or a query's words
// would miss the indexed ones. Checked over this package's own sources,
// line by line, and random strings of code's characters.
func TestRankTermsAreTheIndexAnalysersTerms(t *testing.T) {
	var texts []string
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune("aAbBzZ09_ .-/'é\u00e7ßÄ中\tHTTPServerURLs")
	for range 5000 {
		r := make([]rune, 1+rng.Intn(24))
		for i := range r {
			r[i] = alphabet[rng.Intn(len(alphabet))]
		}
		texts = append(texts, string(r))
	}
	for _, text := range texts {
		var want []string
		for _, tok := range store.AnalyzeCode([]byte(text), nil) {
			want = append(want, string(tok.Term))
		}
		if got := rank.Terms(text); !slices.Equal(got, want) {
			t.Fatalf("rank.Terms(%q) = %q, store.AnalyzeCode gives %q", text, got, want)
		}
	}
}
