package store

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
)

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
	s    *chunk.Symbol
	rank int
}

// symbolRank ranks a match of class: a test file's symbol after the
// others, and among equals a definition before a field, var or const, an
// impl block (named after the type it implements) or a constructor
// (named after its class).
func symbolRank(sym *chunk.Symbol, class int) int {
	return rankOf(class, sym.Path, sym.Kind, sym.Name, sym.Container)
}

// rankOf is symbolRank of a symbol given by its fields.
func rankOf(class int, path, kind, name, container string) int {
	rank := class * 4
	if corpus.Classify(path).Has(corpus.Test) {
		rank += 2
	}
	switch {
	case kind == "field" || kind == "var" || kind == "const" || kind == "impl",
		kind == "method" && name == container:
		rank++
	}
	return rank
}

// symCand is a match of Symbols: a symbol of a changed file (sym) or a record
// of a base (rec, of base), with what ranks it.
type symCand struct {
	rank       int
	name, path string
	line       int
	sym        *chunk.Symbol
	rec        *symRec
	base       *symBase
}

// compareSymCand orders matches as compareScored does.
func compareSymCand(a, b symCand) int {
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	if len(a.name) != len(b.name) {
		return len(a.name) - len(b.name)
	}
	if c := strings.Compare(a.path, b.path); c != 0 {
		return c
	}
	return a.line - b.line
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

// nameOf is the name of r, a symbol of the group of name k.
func (b *symBase) nameOf(r *symRec, k int) string {
	if r.name < 0 {
		return b.name(k)
	}
	return b.str(r.name)
}

// containerOf is r's container, or "".
func (b *symBase) containerOf(r *symRec) string {
	if r.container < 0 {
		return ""
	}
	return b.str(r.container)
}

// find is the place of the first name not below lq.
func (b *symBase) find(lq string) int {
	return sort.Search(b.names(), func(k int) bool { return b.name(k) >= lq })
}

// Lookup finds the symbols of files (the generation's, whose table t is)
// by exact name, then prefix, then case-insensitive substring, best first.
// "Type.Method" matches a method of Type. limit <= 0 means 50.
func (t SymbolTable) Lookup(q string, limit int, files map[string]*Entry) (out []chunk.Symbol) {
	defer t.endLookup(&out, debug.SetPanicOnFault(true))
	q = strings.TrimSpace(q)
	if q == "" || strings.IndexByte(q, 0) >= 0 {
		return nil
	}
	if limit <= 0 {
		limit = 50
	}
	sq := &symbolQuery{q: q, t: t}
	if i := strings.LastIndexByte(q, '.'); i > 0 && i < len(q)-1 {
		sq.container, sq.q = q[:i], q[i+1:]
	}
	sq.lq = strings.ToLower(sq.q)
	t.Build()

	var found []symCand
	for _, b := range t.bases {
		found = append(found, sq.prefixes(b)...)
	}
	overFound, subs := sq.changed(files)
	found = append(found, overFound...)
	slices.SortFunc(found, compareSymCand)
	if len(found) >= limit {
		return resolve(found[:limit])
	}
	// Substring matches rank below every prefix match: look for them only
	// when the prefixes did not fill the list.
	for _, b := range t.bases {
		subs = append(subs, sq.substrings(b)...)
	}
	slices.SortFunc(subs, compareSymCand)
	found = append(found, subs...)
	if len(found) > limit {
		found = found[:limit]
	}
	return resolve(found)
}

// endLookup ends a lookup in t (deferred, with the fault setting to put
// back): it keeps t's bases, and so the table files mapped for them,
// until the lookup has returned, and makes a memory fault in the lookup
// (a mapped table file cut short by another program) no answer and a
// warning, not a crash. Other panics go on.
func (t SymbolTable) endLookup(out *[]chunk.Symbol, panicOnFault bool) {
	debug.SetPanicOnFault(panicOnFault)
	runtime.KeepAlive(t.bases)
	r := recover()
	if r == nil {
		return
	}
	mappedFault := false
	for _, b := range t.bases {
		mappedFault = mappedFault || (b.done.Load() && b.mapped && faultIn(r, b.data))
	}
	if !mappedFault {
		panic(r)
	}
	*out = nil
	if log := t.shared().log; log != nil {
		log.Warn("index: the symbol table's file changed under askls (not by askls); the lookups that read its missing part find nothing until askls restarts", "fault", fmt.Sprint(r))
	}
}

// symbolQuery is one Symbols lookup in a generation's table: the name q
// (lq lowered), and the container that "Type.Method" names.
type symbolQuery struct {
	q, lq, container string
	t                SymbolTable
}

// keep reports whether a record of base b counts: in the container asked
// for, and not of a file changed since the base (those are searched
// whole, in changed) nor stale (its entry is nil).
func (sq *symbolQuery) keep(b *symBase, r *symRec) bool {
	if b.entries[r.file] == nil {
		return false
	}
	if sq.container != "" && !strings.EqualFold(b.containerOf(r), sq.container) {
		return false
	}
	return len(sq.t.over) == 0 || !sq.t.over[b.paths[r.file]]
}

// cand is the candidate of base record r, whose name is the k-th.
func (sq *symbolQuery) cand(b *symBase, r *symRec, k, class int) symCand {
	name, path := b.nameOf(r, k), b.paths[r.file]
	return symCand{rank: rankOf(class, path, b.kinds[r.kind], name, b.containerOf(r)), name: name, path: path,
		line: int(r.line), rec: r, base: b}
}

// prefixes are base b's exact and prefix matches: every name from lq's
// place in the sorted list while it starts with lq.
func (sq *symbolQuery) prefixes(b *symBase) []symCand {
	var found []symCand
	for k := b.find(sq.lq); k < b.names() && strings.HasPrefix(b.name(k), sq.lq); k++ {
		for i := b.first[k]; i < b.first[k+1]; i++ {
			r := &b.recs[i]
			if !sq.keep(b, r) {
				continue
			}
			class := rankPrefix
			switch {
			case b.nameOf(r, k) == sq.q:
				class = rankExact
			case b.name(k) == sq.lq:
				class = rankFold
			}
			found = append(found, sq.cand(b, r, k, class))
		}
	}
	return found
}

// changedPaths calls f with each path whose symbols come from the
// generation's entries: those changed since the bases, and those stale
// in a base read from its file.
func (sq *symbolQuery) changedPaths(f func(p string)) {
	for p := range sq.t.over {
		f(p)
	}
	for _, b := range sq.t.bases {
		for p := range b.stale {
			if !sq.t.over[p] {
				f(p)
			}
		}
	}
}

// changed are the matches among the symbols of the files changed since
// the bases (or stale in them): exact and prefix ones in found,
// substrings in subs.
func (sq *symbolQuery) changed(files map[string]*Entry) (found, subs []symCand) {
	sq.changedPaths(func(p string) {
		e := files[p]
		if e == nil {
			return
		}
		syms := e.Symbols()
		for i := range syms {
			sym := &syms[i]
			if sq.container != "" && !strings.EqualFold(sym.Container, sq.container) {
				continue
			}
			c := symCand{name: sym.Name, path: sym.Path, line: sym.Line, sym: sym}
			class := symbolClass(sym.Name, sq.q, sq.lq)
			switch {
			case class == rankSubstring:
				c.rank = symbolRank(sym, class)
				subs = append(subs, c)
			case class >= 0:
				c.rank = symbolRank(sym, class)
				found = append(found, c)
			}
		}
	})
	return found, subs
}

// substrings are base b's matches of lq inside a name (not at its start:
// those are prefixes), found in the table's blob of names.
func (sq *symbolQuery) substrings(b *symBase) []symCand {
	var subs []symCand
	n := b.names()
	for from := 0; ; {
		i := strings.Index(b.blob[from:], sq.lq)
		if i < 0 {
			break
		}
		at := from + i
		// The name holding the match: the last one starting at or before it.
		k := sort.Search(n, func(j int) bool { return int(b.offs[j]) > at }) - 1
		if k+1 < n {
			from = int(b.offs[k+1])
		} else {
			from = len(b.blob)
		}
		if k < 0 || strings.HasPrefix(b.name(k), sq.lq) {
			continue // a prefix match, already counted
		}
		for i := b.first[k]; i < b.first[k+1]; i++ {
			if r := &b.recs[i]; sq.keep(b, r) {
				subs = append(subs, sq.cand(b, r, k, rankSubstring))
			}
		}
	}
	return subs
}

// resolve gives the Symbols of the matches, decoding the symbols of each
// file a record points to once.
func resolve(found []symCand) []chunk.Symbol {
	out := make([]chunk.Symbol, len(found))
	decoded := map[*Entry][]chunk.Symbol{}
	for i, c := range found {
		if c.sym != nil {
			out[i] = *c.sym
			continue
		}
		b, r := c.base, c.rec
		e := b.entries[r.file]
		fs, ok := decoded[e]
		if !ok {
			fs = b.symbolsOf(e)
			decoded[e] = fs
		}
		if int(r.idx) < len(fs) {
			out[i] = fs[r.idx]
			continue
		}
		// The file's symbols can no longer be read (the index was
		// closed): what the table holds, without a signature.
		// Copies: the table's strings may lie in its mapped file.
		out[i] = chunk.Symbol{Name: strings.Clone(c.name), Container: strings.Clone(b.containerOf(r)),
			Kind: strings.Clone(b.kinds[r.kind]), Path: strings.Clone(b.paths[r.file]),
			Line: int(r.line), EndLine: int(r.end), Language: e.Lang}
	}
	return out
}

func symbolsOf(found []scored) []chunk.Symbol {
	out := make([]chunk.Symbol, len(found))
	for i, f := range found {
		out[i] = *f.s
	}
	return out
}

// ScanSymbols is the plain scan the table replaces: every symbol of
// files, matched and ranked as Lookup does. Tests compare the two.
func ScanSymbols(files map[string]*Entry, q string, limit int) []chunk.Symbol {
	q = strings.TrimSpace(q)
	container := ""
	if i := strings.LastIndexByte(q, '.'); i > 0 && i < len(q)-1 {
		container, q = q[:i], q[i+1:]
	}
	lq := strings.ToLower(q)
	var found []scored
	for _, e := range files {
		syms := e.Symbols()
		for i := range syms {
			sym := &syms[i]
			if container != "" && !strings.EqualFold(sym.Container, container) {
				continue
			}
			if class := symbolClass(sym.Name, q, lq); class >= 0 {
				found = append(found, scored{sym, symbolRank(sym, class)})
			}
		}
	}
	slices.SortFunc(found, compareScored)
	if len(found) > limit {
		found = found[:limit]
	}
	return symbolsOf(found)
}
