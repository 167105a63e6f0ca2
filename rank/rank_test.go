package rank

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/askls/askls/corpus"
)

func TestPriorsApply(t *testing.T) {
	pr := DefaultPriors()
	cases := []struct {
		name  string
		class corpus.Class
		asks  Asks
		want  float64
		why   string
	}{
		{"code", 0, Asks{}, 1, ""},
		{"a test", corpus.Test, Asks{}, pr.TestFactor, "priors test×0.15"},
		{"a test, asked for", corpus.Test, Asks{Tests: true}, 1, ""},
		{"generated prose takes the generated factor only", corpus.Generated | corpus.Prose, Asks{}, pr.GeneratedFactor, "priors generated×0.1"},
		{"vendored packaging", corpus.Vendored | corpus.Packaging, Asks{}, pr.VendoredFactor * pr.PackagingFactor, "priors vendored×0.3 · priors packaging×0.3"},
		{"vendored, its folder named", corpus.Vendored, Asks{Vendored: true}, 1, ""},
		{"an example", corpus.Example, Asks{}, pr.ExampleFactor, "priors example×0.5"},
	}
	for _, c := range cases {
		var b Breakdown
		if got := pr.Apply(1, c.class, c.asks, &b); got != c.want {
			t.Errorf("%s: score %v, want %v", c.name, got, c.want)
		}
		if got := b.String(); got != c.why {
			t.Errorf("%s: breakdown %q, want %q", c.name, got, c.why)
		}
	}
}

func TestByFileCoversFilesFirst(t *testing.T) {
	type c struct {
		path  string
		score float64
	}
	cs := []c{{"a.go", 10}, {"a.go", 9}, {"a.go", 8}, {"b.go", 7}, {"c.go", 12}}
	key := func(x c) (string, float64, float64) { return x.path, x.score, x.score }
	order := func(decay float64) (string, map[string]float64) {
		out, files := ByFile(slices.Clone(cs), key, FileParams{SecondWeight: 0.15, Decay: decay})
		var paths []string
		for _, x := range out {
			paths = append(paths, fmt.Sprintf("%s:%g", x.path, x.score))
		}
		return strings.Join(paths, " "), files
	}
	// a.go's three chunks make its file score 12.55, above c.go's 12: its
	// best comes first. Its second is ordered by 12.55 × 0.9 × 0.5 =
	// 5.6475 and its third by 12.55 × 0.8 × 0.25 = 2.51, below b.go's 7.
	got, files := order(0.5)
	if want := "a.go:10 c.go:12 b.go:7 a.go:9 a.go:8"; got != want {
		t.Errorf("order with decay 0.5:\n%s\nwant\n%s", got, want)
	}
	if want := 10 + 0.15*(9+8); math.Abs(files["a.go"]-want) > 1e-9 {
		t.Errorf("a.go's file score %v, want %v", files["a.go"], want)
	}
	// Without decay a strong file keeps its chunks together.
	if got, _ := order(1); got != "a.go:10 c.go:12 a.go:9 a.go:8 b.go:7" {
		t.Errorf("order with decay 1: %s", got)
	}
}
