package rank

import "sort"

// FileParams are the parameters of the files stage (index.Ranking's
// FileSecondWeight, FileExtraHits and FileExtraShare).
type FileParams struct {
	SecondWeight float64 // what a file's other chunks add to its best chunk's score
	ExtraHits    int     // how many of a file's next chunks follow its best at once
	ExtraShare   float64 // ... when they score at least this share of its best
}

// ByFile orders candidates so that each file's best chunk comes
// first, files ranked by their file score: the best chunk's plus
// fp.SecondWeight times the others' (capped at twice the best). key
// gives a candidate's path, the score it adds to its file, and the score
// that orders it among its file's chunks (lower for a declaration, see
// Ranking.DeclFactor). Each file's next best chunks (up to fp.ExtraHits,
// scoring at least fp.ExtraShare of its best) follow it at once, so the
// right file's right range is shown before the next files; the rest
// follow by score. It returns the files' scores too.
func ByFile[T any](cs []T, key func(T) (path string, file, chunk float64), fp FileParams) ([]T, map[string]float64) {
	chunkScore := func(c T) float64 { _, _, sc := key(c); return sc }
	sort.SliceStable(cs, func(i, j int) bool { return chunkScore(cs[i]) > chunkScore(cs[j]) })
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
	var firsts []T
	rest := map[string][]T{}
	for _, c := range cs {
		p, _, _ := key(c)
		if _, seen := rest[p]; seen {
			rest[p] = append(rest[p], c)
			continue
		}
		rest[p] = []T{}
		firsts = append(firsts, c)
	}
	sort.SliceStable(firsts, func(i, j int) bool {
		pi, _, _ := key(firsts[i])
		pj, _, _ := key(firsts[j])
		return fileScore[pi] > fileScore[pj]
	})
	out := make([]T, 0, len(cs))
	var later []T
	for _, f := range firsts {
		out = append(out, f)
		p, _, _ := key(f)
		best := chunkScore(f)
		for i, c := range rest[p] {
			if i < fp.ExtraHits && chunkScore(c) >= fp.ExtraShare*best {
				out = append(out, c)
			} else {
				later = append(later, c)
			}
		}
	}
	sort.SliceStable(later, func(i, j int) bool { return chunkScore(later[i]) > chunkScore(later[j]) })
	return append(out, later...), fileScore
}
