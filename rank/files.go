package rank

import (
	"math"
	"sort"
)

// FileParams are the parameters of the files stage (Params'
// FileSecondWeight and FileDecay).
type FileParams struct {
	SecondWeight float64 // what a file's other chunks add to its best chunk's score
	// Decay weighs each further chunk of one file: a file's k-th best
	// chunk is ordered by its share of the file's score times Decay^k
	// (1: no diversity).
	Decay float64
}

// ByFile ranks files by their file score, the best chunk's plus
// fp.SecondWeight times the others' (capped at twice the best), and orders
// every chunk by its file's score times the chunk's share of its file's
// best chunk times fp.Decay for each better chunk of the same file. A
// file that holds several strong chunks lifts them all; each further chunk
// of one file weighs less, so the first page covers more files. key gives
// a candidate's path, the score it adds to its file, and the score that
// orders it among its file's chunks (lower for a declaration, see
// Params.DeclFactor). It returns the files' scores too.
func ByFile[T any](cs []T, key func(T) (path string, file, chunk float64), fp FileParams) ([]T, map[string]float64) {
	chunkScore := func(c T) float64 { _, _, sc := key(c); return sc }
	sortStable(cs, func(a, b *T) bool { return chunkScore(*a) > chunkScore(*b) })
	byFile := map[string][]float64{}
	for _, c := range cs {
		p, f, _ := key(c)
		byFile[p] = append(byFile[p], f)
	}
	fileScore := make(map[string]float64, len(byFile))
	for p, fs := range byFile {
		sort.Sort(sort.Reverse(sort.Float64Slice(fs)))
		sum := fs[0]
		for _, f := range fs[1:] {
			sum += fp.SecondWeight * f
		}
		fileScore[p] = min(sum, 2*fs[0])
	}
	type ranked struct {
		c     T
		order float64
	}
	best := map[string]float64{}
	better := map[string]int{}
	rs := make([]ranked, len(cs))
	for i, c := range cs {
		p, _, sc := key(c)
		if _, ok := best[p]; !ok {
			best[p] = sc
		}
		share := 1.0
		if best[p] > 0 {
			share = sc / best[p]
		}
		rs[i] = ranked{c, fileScore[p] * share * math.Pow(fp.Decay, float64(better[p]))}
		better[p]++
	}
	sortStable(rs, func(a, b *ranked) bool { return a.order > b.order })
	out := make([]T, len(rs))
	for i, r := range rs {
		out[i] = r.c
	}
	return out, fileScore
}
