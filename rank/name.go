package rank

import "strings"

// NameBoost raises the candidates whose file name or folder name holds a
// plain word of the question (session/store.go for "how are sessions
// stored"): by factor per word, for at most two words.
func NameBoost(p *Plan, cands []Cand, factor float64) {
	if len(p.Words) == 0 {
		return
	}
	want := map[string]bool{}
	for _, w := range p.Words {
		want[w] = true
	}
	memo := map[string]float64{}
	for i := range cands {
		c := &cands[i]
		f, ok := memo[c.Path]
		if !ok {
			n := 0
			for _, t := range Terms(nameParts(c.Path)) {
				if want[t] {
					n++
				}
			}
			f = 1 + factor*float64(min(n, 2))
			memo[c.Path] = f
		}
		c.Score *= f
		c.Why.Add(StageCoverage, "name", f)
	}
}

// nameParts is a path's file name without its extension and the name of
// its folder, "store session" for "app/session/store.go".
func nameParts(path string) string {
	base, dir := path, ""
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base, dir = path[i+1:], path[:i]
	}
	if j := strings.IndexByte(base, '.'); j > 0 {
		base = base[:j]
	}
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		dir = dir[i+1:]
	}
	return base + " " + dir
}
