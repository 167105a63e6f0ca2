package index

import (
	"fmt"
	"sort"

	"github.com/askls/askls/index/chunk"
	"github.com/zeebo/blake3"
)

// Outline lists the symbols of one file in line order. An open buffer is
// outlined from its current content: from its entry when that content is
// the one indexed (a blake3 hash of the buffer decides), else by chunking
// it again. Retrieval answers outline each hit's file, so the first path
// must stay cheap.
func (s *Snapshot) Outline(p string) ([]Symbol, error) {
	api, ok := s.ix.normalize(p)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	var syms []chunk.Symbol
	e, indexed := s.st.files[api]
	if c, open := s.overlay[api]; open && !(indexed && e.Hash == blake3.Sum256(c)) {
		_, syms = chunk.File(api, chunk.Language(api), c)
	} else if indexed {
		syms = append(syms, e.Symbols()...)
	} else {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, api)
	}
	sort.SliceStable(syms, func(i, j int) bool { return syms[i].Line < syms[j].Line })
	return syms, nil
}

// Symbols finds symbols by exact name, then prefix, then case-insensitive
// substring, best first. "Type.Method" matches a method of Type. limit <= 0
// means 50.
func (s *Snapshot) Symbols(q string, limit int) []Symbol {
	return s.st.tab.Lookup(q, limit, s.st.files)
}
