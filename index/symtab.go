package index

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/zeebo/blake3"
)

// The symbol table answers Symbols without scanning every symbol.
//
// A symBase is built once from the files of some generation: every
// distinct lower-case name, sorted (exact and prefix lookups are a binary
// search), and the same names joined in one string (a substring lookup is
// strings.Index over it, not a ToLower per symbol). Later generations share
// the base and list the files that changed since it was built ("over"):
// their symbols are read from the generation's own entries and their stale
// base entries are skipped. An edit therefore costs a diff of the file
// maps, not a rebuild; when more than maxOver files have changed, the next
// generation starts a new base. A base is built on first use or in the
// background after it is published (buildAsync), whichever comes first.

// maxOver is how many changed files a generation may list before it gets a
// base of its own.
const maxOver = 256

// symtab is the symbol table of one generation: immutable.
type symtab struct {
	base *symBase
	over map[string]bool // API paths whose symbols come from state.files, not base
}

// symBase is the sorted table of the symbols of files.
type symBase struct {
	files map[string]*fileEntry // the generation it was built from (read-only)

	once  sync.Once
	names []string  // distinct lower-case names, sorted
	first []int32   // symbols of names[i] are ents[first[i]:first[i+1]]
	ents  []*Symbol // grouped by name
	blob  string    // "\x00" + names joined by "\x00" + "\x00"
	offs  []int32   // offset in blob of names[i]
	count int       // symbols in the table
}

// nextSymtab is the table for a generation with files, given the table of
// the previous one. changed, when not nil, lists every path whose entry may
// differ from the previous generation's: the others are not compared.
func nextSymtab(prev symtab, files map[string]*fileEntry, changed map[string]bool) symtab {
	if prev.base == nil || len(prev.base.files) == 0 {
		return symtab{base: &symBase{files: files}}
	}
	if changed != nil {
		// Listing a path whose entry did not change is harmless: its
		// symbols are read from the generation instead of the base.
		if len(prev.over)+len(changed) > maxOver {
			return symtab{base: &symBase{files: files}}
		}
		over := make(map[string]bool, len(prev.over)+len(changed))
		for p := range prev.over {
			over[p] = true
		}
		for p := range changed {
			over[p] = true
		}
		return symtab{base: prev.base, over: over}
	}
	over := map[string]bool{}
	for p, e := range files {
		if prev.base.files[p] != e {
			over[p] = true
			if len(over) > maxOver {
				return symtab{base: &symBase{files: files}}
			}
		}
	}
	for p := range prev.base.files {
		if _, ok := files[p]; !ok {
			over[p] = true
			if len(over) > maxOver {
				return symtab{base: &symBase{files: files}}
			}
		}
	}
	return symtab{base: prev.base, over: over}
}

// buildAsync builds the base in the background unless it is built.
func (t symtab) buildAsync() {
	if t.base != nil {
		go t.base.build()
	}
}

func (b *symBase) build() {
	b.once.Do(func() {
		// Number the distinct lower-case names in the order met, sort
		// them, then place each symbol in its name's group: one map
		// lookup per symbol and a sort of the distinct names only.
		n := 0
		for _, e := range b.files {
			n += e.symbolCount()
		}
		syms := make([]*Symbol, 0, n)
		group := make([]int32, 0, n) // by symbol: its name's number
		ids := make(map[string]int32, n/2)
		var names []string // by number
		var count []int32  // by number
		for _, e := range b.files {
			fs := e.symbols()
			for i := range fs {
				l := strings.ToLower(fs[i].Name)
				id, ok := ids[l]
				if !ok {
					id = int32(len(names))
					ids[l] = id
					names = append(names, l)
					count = append(count, 0)
				}
				count[id]++
				syms = append(syms, &fs[i])
				group = append(group, id)
			}
		}
		order := make([]int32, len(names)) // numbers in name order
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(x, y int32) int { return strings.Compare(names[x], names[y]) })
		b.names = make([]string, len(names))
		b.first = make([]int32, len(names)+1)
		b.offs = make([]int32, len(names))
		next := make([]int32, len(names)) // by number: next free slot of its group
		var blob strings.Builder
		blob.Grow(len(names) * 12)
		blob.WriteByte(0)
		for k, id := range order {
			l := names[id]
			b.names[k] = l
			b.first[k+1] = b.first[k] + count[id]
			next[id] = b.first[k]
			b.offs[k] = int32(blob.Len())
			blob.WriteString(l)
			blob.WriteByte(0)
		}
		b.blob = blob.String()
		b.ents = make([]*Symbol, len(syms))
		for i, sym := range syms {
			b.ents[next[group[i]]] = sym
			next[group[i]]++
		}
		b.count = len(syms)
	})
}

// symbolCount is the number of symbols of the generation.
func (st *state) symbolCount() int {
	n := 0
	for _, e := range st.files {
		n += e.symbolCount()
	}
	return n
}

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
	var syms []Symbol
	e, indexed := s.st.files[api]
	if c, open := s.overlay[api]; open && !(indexed && e.Hash == blake3.Sum256(c)) {
		_, syms = chunkFile(api, languageOf(api), c)
	} else if indexed {
		syms = append(syms, e.symbols()...)
	} else {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, api)
	}
	sort.SliceStable(syms, func(i, j int) bool { return syms[i].Line < syms[j].Line })
	return syms, nil
}

// Rank classes of a match (lower is better): exact, same name in another
// case, prefix (any case), substring (any case). A class is worth 4: +2 for
// a test file, +1 for a field, var or const.
const (
	rankExact = iota
	rankFold
	rankPrefix
	rankSubstring
)

// symbolClass is how name matches the query q (lq: q in lower case): one
// of the rank classes, or -1 when it does not match.
func symbolClass(name, q, lq string) int {
	lower := strings.ToLower(name)
	switch {
	case name == q:
		return rankExact
	case lower == lq:
		return rankFold
	case strings.HasPrefix(lower, lq):
		return rankPrefix
	case strings.Contains(lower, lq):
		return rankSubstring
	}
	return -1
}

type scored struct {
	s    *Symbol
	rank int
}

// symbolRank ranks a match of class: a test file's symbol after the
// others, and among equals a definition before a field, var or const, an
// impl block (named after the type it implements) or a constructor
// (named after its class).
func symbolRank(sym *Symbol, class int) int {
	rank := class * 4
	if isTestPath(sym.Path) {
		rank += 2
	}
	switch {
	case sym.Kind == "field" || sym.Kind == "var" || sym.Kind == "const" || sym.Kind == "impl",
		sym.Kind == "method" && sym.Name == sym.Container:
		rank++
	}
	return rank
}

func compareScored(a, b scored) int {
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	if len(a.s.Name) != len(b.s.Name) {
		return len(a.s.Name) - len(b.s.Name)
	}
	if c := strings.Compare(a.s.Path, b.s.Path); c != 0 {
		return c
	}
	return a.s.Line - b.s.Line
}

// Symbols finds symbols by exact name, then prefix, then case-insensitive
// substring, best first. "Type.Method" matches a method of Type. limit <= 0
// means 50.
func (s *Snapshot) Symbols(q string, limit int) []Symbol {
	q = strings.TrimSpace(q)
	if q == "" || strings.IndexByte(q, 0) >= 0 {
		return nil
	}
	if limit <= 0 {
		limit = 50
	}
	sq := symbolQuery{q: q, t: s.st.tab}
	if i := strings.LastIndexByte(q, '.'); i > 0 && i < len(q)-1 {
		sq.container, sq.q = q[:i], q[i+1:]
	}
	sq.lq = strings.ToLower(sq.q)
	sq.t.base.build()

	found := sq.prefixes()
	overFound, subs := sq.changed(s.st.files)
	found = append(found, overFound...)
	slices.SortFunc(found, compareScored)
	if len(found) >= limit {
		return symbolsOf(found[:limit])
	}
	// Substring matches rank below every prefix match: look for them only
	// when the prefixes did not fill the list.
	subs = append(subs, sq.substrings()...)
	slices.SortFunc(subs, compareScored)
	found = append(found, subs...)
	if len(found) > limit {
		found = found[:limit]
	}
	return symbolsOf(found)
}

// symbolQuery is one Symbols lookup in a generation's table: the name q
// (lq lowered), and the container that "Type.Method" names.
type symbolQuery struct {
	q, lq, container string
	t                symtab
}

// inContainer reports whether sym is in the container asked for, if any.
func (sq *symbolQuery) inContainer(sym *Symbol) bool {
	return sq.container == "" || strings.EqualFold(sym.Container, sq.container)
}

// keep reports whether a symbol of the base table counts: in the container,
// and not of a file changed since the base (those are searched whole).
func (sq *symbolQuery) keep(sym *Symbol) bool {
	return sq.inContainer(sym) && (len(sq.t.over) == 0 || !sq.t.over[sym.Path])
}

// prefixes are the base table's exact and prefix matches: every name from
// lq's place in the sorted list while it starts with lq.
func (sq *symbolQuery) prefixes() []scored {
	b := sq.t.base
	var found []scored
	for k := sort.SearchStrings(b.names, sq.lq); k < len(b.names) && strings.HasPrefix(b.names[k], sq.lq); k++ {
		for _, sym := range b.ents[b.first[k]:b.first[k+1]] {
			if !sq.keep(sym) {
				continue
			}
			class := rankPrefix
			switch {
			case sym.Name == sq.q:
				class = rankExact
			case b.names[k] == sq.lq:
				class = rankFold
			}
			found = append(found, scored{sym, symbolRank(sym, class)})
		}
	}
	return found
}

// changed are the matches among the symbols of the files changed since
// the base table: exact and prefix ones in found, substrings in subs.
func (sq *symbolQuery) changed(files map[string]*fileEntry) (found, subs []scored) {
	for p := range sq.t.over {
		e := files[p]
		if e == nil {
			continue
		}
		syms := e.symbols()
		for i := range syms {
			sym := &syms[i]
			if !sq.inContainer(sym) {
				continue
			}
			class := symbolClass(sym.Name, sq.q, sq.lq)
			switch {
			case class == rankSubstring:
				subs = append(subs, scored{sym, symbolRank(sym, class)})
			case class >= 0:
				found = append(found, scored{sym, symbolRank(sym, class)})
			}
		}
	}
	return found, subs
}

// substrings are the base table's names that hold lq but do not start
// with it, found in the blob of all names.
func (sq *symbolQuery) substrings() []scored {
	b := sq.t.base
	var subs []scored
	for from := 0; ; {
		i := strings.Index(b.blob[from:], sq.lq)
		if i < 0 {
			break
		}
		at := from + i
		// The name holding the match: the last one starting at or before it.
		k := sort.Search(len(b.offs), func(j int) bool { return int(b.offs[j]) > at }) - 1
		if k+1 < len(b.offs) {
			from = int(b.offs[k+1])
		} else {
			from = len(b.blob)
		}
		if k < 0 || strings.HasPrefix(b.names[k], sq.lq) {
			continue // a prefix match, already counted
		}
		for _, sym := range b.ents[b.first[k]:b.first[k+1]] {
			if sq.keep(sym) {
				subs = append(subs, scored{sym, symbolRank(sym, rankSubstring)})
			}
		}
	}
	return subs
}

func symbolsOf(found []scored) []Symbol {
	out := make([]Symbol, len(found))
	for i, f := range found {
		out[i] = *f.s
	}
	return out
}
