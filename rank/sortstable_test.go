package rank

import (
	"math"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// sortStable must leave a slice in the order sort.SliceStable leaves it,
// ties (many here) and NaN scores included.
func TestSortStableIsSliceStable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := range 300 {
		cs := make([]Cand, n)
		for i := range cs {
			cs[i] = Cand{Path: string(rune('a' + i%26)), Score: float64(rng.Intn(8))}
			if rng.Intn(50) == 0 {
				cs[i].Score = math.NaN()
			}
			cs[i].Meta.Start = i // tells equal scores apart
		}
		want := slices.Clone(cs)
		sort.SliceStable(want, func(i, j int) bool { return want[i].Score > want[j].Score })
		sortStable(cs, func(a, b *Cand) bool { return a.Score > b.Score })
		for i := range cs {
			if cs[i].Meta.Start != want[i].Meta.Start {
				t.Fatalf("n=%d: position %d holds candidate %d, sort.SliceStable puts %d there", n, i, cs[i].Meta.Start, want[i].Meta.Start)
			}
		}
	}
}
