package store

import (
	"runtime/debug"
	"slices"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// Named returns every symbol of files (the generation's, whose table t
// is) whose name is exactly name (same case), in the order of Lookup
// (tests after the rest), with no limit: what a search for the methods
// that implement an interface needs, where Lookup would fill its limit
// with prefix matches ("ReadAt" for "Read") or cut the exact ones.
// "Type.Method" is not split: name is one name.
func (t SymbolTable) Named(name string, files map[string]*Entry) (out []chunk.Symbol) {
	defer t.endLookup(&out, debug.SetPanicOnFault(true))
	if name == "" || strings.IndexByte(name, 0) >= 0 {
		return nil
	}
	sq := &symbolQuery{q: name, lq: strings.ToLower(name), t: t}
	t.Build()
	var found []symCand
	for _, b := range t.bases {
		// The group of lq in the sorted names holds name in every case.
		k := b.find(sq.lq)
		if k >= b.names() || b.name(k) != sq.lq {
			continue
		}
		for i := b.first[k]; i < b.first[k+1]; i++ {
			r := &b.recs[i]
			if sq.keep(b, r) && b.nameOf(r, k) == name {
				found = append(found, sq.cand(b, r, k, rankExact))
			}
		}
	}
	changed, _ := sq.changed(files)
	for _, c := range changed {
		if c.name == name {
			found = append(found, c)
		}
	}
	slices.SortFunc(found, compareSymCand)
	return resolve(found)
}
