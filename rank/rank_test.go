package rank

import (
	"math"
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
		{"a test", corpus.Test, Asks{}, pr.TestFactor, "priors test×0.25"},
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
	cs := []c{{"a.go", 10}, {"a.go", 9}, {"a.go", 8}, {"b.go", 7}}
	out, files := ByFile(cs, func(x c) (string, float64, float64) { return x.path, x.score, x.score },
		FileParams{SecondWeight: 0.15, ExtraHits: 1, ExtraShare: 0.3})
	var order []string
	for _, x := range out {
		order = append(order, x.path)
	}
	// a.go's best and one more, then b.go, then a.go's third.
	if got := strings.Join(order, " "); got != "a.go a.go b.go a.go" {
		t.Errorf("order %s", got)
	}
	if want := 10 + 0.15*(9+8); math.Abs(files["a.go"]-want) > 1e-9 {
		t.Errorf("a.go's file score %v, want %v", files["a.go"], want)
	}
}
