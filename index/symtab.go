package index

import (
	"fmt"
	"sort"
	"strings"
)

// Outline lists the symbols of one file in line order. An open buffer is
// outlined from its current content.
func (s *Snapshot) Outline(p string) ([]Symbol, error) {
	api, ok := s.ix.normalize(p)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	var syms []Symbol
	if c, open := s.overlay[api]; open {
		_, syms = chunkFile(api, languageOf(api), c)
	} else if e, ok := s.st.files[api]; ok {
		syms = append(syms, e.Symbols...)
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
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	if limit <= 0 {
		limit = 50
	}
	container := ""
	if i := strings.LastIndexByte(q, '.'); i > 0 && i < len(q)-1 {
		container, q = q[:i], q[i+1:]
	}
	lq := strings.ToLower(q)
	type scored struct {
		s    *Symbol
		rank int
	}
	var found []scored
	s.st.index()
	for _, sym := range s.st.syms {
		if container != "" && !strings.EqualFold(sym.Container, container) {
			continue
		}
		rank := -1
		switch {
		case sym.Name == q:
			rank = 0
		case strings.EqualFold(sym.Name, q):
			rank = 1
		case len(sym.Name) >= len(q) && strings.EqualFold(sym.Name[:len(q)], q):
			rank = 2
		case strings.Contains(strings.ToLower(sym.Name), lq):
			rank = 3
		}
		if rank < 0 {
			continue
		}
		rank *= 4
		if isTestPath(sym.Path) {
			rank += 2
		}
		if sym.Kind == "field" || sym.Kind == "var" || sym.Kind == "const" {
			rank++
		}
		found = append(found, scored{sym, rank})
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if len(a.s.Name) != len(b.s.Name) {
			return len(a.s.Name) < len(b.s.Name)
		}
		if a.s.Path != b.s.Path {
			return a.s.Path < b.s.Path
		}
		return a.s.Line < b.s.Line
	})
	if len(found) > limit {
		found = found[:limit]
	}
	out := make([]Symbol, len(found))
	for i, f := range found {
		out[i] = *f.s
	}
	return out
}
