package store

import (
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
func (t SymbolTable) Named(name string, files map[string]*Entry) []chunk.Symbol {
	if name == "" || strings.IndexByte(name, 0) >= 0 {
		return nil
	}
	sq := &symbolQuery{q: name, lq: strings.ToLower(name), t: t}
	sq.t.base.build()
	var found []symCand
	b := sq.t.base
	// The group of lq in the sorted names holds name in every case.
	if k, ok := slices.BinarySearch(b.names, sq.lq); ok {
		for i := b.first[k]; i < b.first[k+1]; i++ {
			r := &b.recs[i]
			if sq.keep(r) && b.nameOf(r, k) == name {
				found = append(found, sq.cand(r, k, rankExact))
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
	return b.resolve(found)
}
