package store

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
)

// The symbol table answers Symbols without scanning every symbol.
//
// A symBase is built once from the files of some generation: every
// distinct lower-case name, sorted (exact and prefix lookups are a binary
// search), and the same names joined in one string (a substring lookup is
// strings.Index over it, not a ToLower per symbol). Each symbol is a small
// record (symRec: its names, file, line, kind and place in its file's
// list), not a decoded Symbol: the symbols of a file in the symbols file
// are read to build the table and again, for the few a lookup returns, to
// fill in their signatures (the Linux tree's 2.9 million decoded symbols
// held 600 MB). Later generations share
// the base and list the files that changed since it was built ("over"):
// their symbols are read from the generation's own entries and their stale
// base entries are skipped. An edit therefore costs a diff of the file
// maps, not a rebuild; when more than MaxOver files have changed, the next
// generation starts a new base. A base is built on first use or in the
// background after it is published (BuildAsync), whichever comes first.

// Tuner hears of each symbol table built (the façade passes its
// RuntimeTuner).
type Tuner interface{ SymbolTableBuilt(n int) }

// NewSymbolTable is the empty table a first generation's table follows
// (NextSymbolTable), with the tuner it hands on.
func NewSymbolTable(tune Tuner) SymbolTable { return SymbolTable{tune: tune} }

// Built reports whether the table's base is built (a lookup builds it).
func (t SymbolTable) Built() bool { return t.base != nil && t.base.names != nil }

// Build builds the table's base now, unless it is built.
func (t SymbolTable) Build() {
	if t.base != nil {
		t.base.build()
	}
}

// Count is the number of symbols in the table's base, once built.
func (t SymbolTable) Count() int {
	if t.base == nil {
		return 0
	}
	return t.base.count
}

// MaxOver is how many changed files a generation may list before it gets a
// base of its own.
const MaxOver = 256

// SymbolTable is the symbol table of one generation: immutable.
type SymbolTable struct {
	base *symBase
	over map[string]bool // API paths whose symbols come from the generation's entries, not base
	tune Tuner           // told of each base's build (handed on from table to table)
}

// symBase is the sorted table of the symbols of files.
type symBase struct {
	files map[string]*Entry // the generation it was built from (read-only)

	once  sync.Once
	names []string // distinct lower-case names, sorted
	first []int32  // symbols of names[i] are recs[first[i]:first[i+1]]
	recs  []symRec // grouped by name
	blob  string   // "\x00" + names joined by "\x00" + "\x00"
	offs  []int32  // offset in blob of names[i]
	count int      // symbols in the table

	// What the records point to.
	paths   []string // by file number
	entries []*Entry // by file number
	strs    []string // names and containers in their own case, by number
	kinds   []string // kinds, by number

	tune        Tuner // told when the build is done; nil: none
	keepDecoded bool  // see KeepDecodedBelow
}

// symbolsOf are e's symbols, kept decoded or not (KeepDecodedBelow).
func (b *symBase) symbolsOf(e *Entry) []chunk.Symbol {
	if b.keepDecoded {
		return e.Symbols()
	}
	return e.PeekSymbols()
}

// symRec is one symbol of a symBase.
type symRec struct {
	name, container int32 // in strs; name -1: its group's lower-case name; container -1: none
	file            int32 // in paths and entries
	idx             int32 // its place in its file's symbols
	line, end       int32
	kind            int16 // in kinds
}

// KeepDecodedBelow: a table of fewer symbols than this keeps its files'
// decoded symbols (a lookup then decodes nothing again; GOROOT's 228,000
// take about 60 MB); a larger one keeps its records only and decodes the
// symbols a lookup returns (the Linux tree's 2.9 million took 600 MB).
var KeepDecodedBelow = 500_000

// NextSymbolTable is the table for a generation with files, given the table of
// the previous one. changed, when not nil, lists every path whose entry may
// differ from the previous generation's: the others are not compared.
func NextSymbolTable(prev SymbolTable, files map[string]*Entry, changed map[string]bool) SymbolTable {
	if prev.base == nil || len(prev.base.files) == 0 {
		return SymbolTable{base: &symBase{files: files, tune: prev.tune}, tune: prev.tune}
	}
	if changed != nil {
		// Listing a path whose entry did not change is harmless: its
		// symbols are read from the generation instead of the base.
		if len(prev.over)+len(changed) > MaxOver {
			return SymbolTable{base: &symBase{files: files, tune: prev.tune}, tune: prev.tune}
		}
		over := make(map[string]bool, len(prev.over)+len(changed))
		for p := range prev.over {
			over[p] = true
		}
		for p := range changed {
			over[p] = true
		}
		return SymbolTable{base: prev.base, over: over, tune: prev.tune}
	}
	over := map[string]bool{}
	for p, e := range files {
		if prev.base.files[p] != e {
			over[p] = true
			if len(over) > MaxOver {
				return SymbolTable{base: &symBase{files: files, tune: prev.tune}, tune: prev.tune}
			}
		}
	}
	for p := range prev.base.files {
		if _, ok := files[p]; !ok {
			over[p] = true
			if len(over) > MaxOver {
				return SymbolTable{base: &symBase{files: files, tune: prev.tune}, tune: prev.tune}
			}
		}
	}
	return SymbolTable{base: prev.base, over: over, tune: prev.tune}
}

// BuildAsync builds the base in the background unless it is built.
func (t SymbolTable) BuildAsync() {
	if t.base != nil {
		go t.base.build()
	}
}

func (b *symBase) build() {
	b.once.Do(func() {
		// Number the distinct lower-case names in the order met, sort
		// them, then place each symbol in its name's group: one map
		// lookup per symbol and a sort of the distinct names only. The
		// decoded symbols' strings are cut from their file's block, which
		// is not kept: the strings the table keeps are cut from two
		// strings of its own (blob, and one for strs) made at the end.
		c := b.collect()
		b.place(c)
		b.count = len(c.recs)
		if b.tune != nil {
			b.tune.SymbolTableBuilt(b.count)
		}
	})
}

// symCollect is what collect gathers for place: the records in the
// files' order, each record's name number, and by number the distinct
// lower-case names and how many records hold each.
type symCollect struct {
	recs  []symRec
	group []int32  // by record: its name's number
	names []string // by number
	count []int32  // by number
}

// collect reads every file's symbols into records, numbering the
// distinct lower-case names in the order met and interning containers,
// mixed-case names and kinds.
func (b *symBase) collect() *symCollect {
	n := 0
	for _, e := range b.files {
		n += e.SymbolCount()
	}
	b.keepDecoded = n < KeepDecodedBelow
	c := &symCollect{recs: make([]symRec, 0, n), group: make([]int32, 0, n)}
	ids := make(map[string]int32, n/2)
	strIDs := make(map[string]int32, n/2)
	kindIDs := map[string]int16{}
	// own keeps a string for the build: a copy when the files' decoded
	// symbols are not kept, so that each file's block is garbage once
	// read (the kernel's blocks are 257 MB).
	own := func(v string) string {
		if b.keepDecoded {
			return v
		}
		return strings.Clone(v)
	}
	str := func(v string) int32 {
		id, ok := strIDs[v]
		if !ok {
			id = int32(len(b.strs))
			v = own(v)
			strIDs[v] = id
			b.strs = append(b.strs, v)
		}
		return id
	}
	for p, e := range b.files {
		fs := b.symbolsOf(e)
		if len(fs) == 0 {
			continue
		}
		file := int32(len(b.paths))
		b.paths = append(b.paths, p)
		b.entries = append(b.entries, e)
		for i := range fs {
			sym := &fs[i]
			l := strings.ToLower(sym.Name)
			id, ok := ids[l]
			if !ok {
				id = int32(len(c.names))
				l = own(l)
				ids[l] = id
				c.names = append(c.names, l)
				c.count = append(c.count, 0)
			}
			c.count[id]++
			kind, ok := kindIDs[sym.Kind]
			if !ok {
				kind = int16(len(b.kinds))
				kindIDs[strings.Clone(sym.Kind)] = kind
				b.kinds = append(b.kinds, strings.Clone(sym.Kind))
			}
			container := int32(-1)
			if sym.Container != "" {
				container = str(sym.Container)
			}
			name := int32(-1) // most names are in lower case already
			if sym.Name != l {
				name = str(sym.Name)
			}
			c.recs = append(c.recs, symRec{name: name, container: container, file: file, idx: int32(i),
				line: int32(sym.Line), end: int32(sym.EndLine), kind: kind})
			c.group = append(c.group, id)
		}
	}
	return c
}

// place sorts the distinct names into one blob and puts each record in
// its name's group.
func (b *symBase) place(c *symCollect) {
	names, count := c.names, c.count
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
		b.first[k+1] = b.first[k] + count[id]
		next[id] = b.first[k]
		b.offs[k] = int32(blob.Len())
		blob.WriteString(names[id])
		blob.WriteByte(0)
	}
	b.blob = blob.String()
	for k, id := range order {
		b.names[k] = b.blob[b.offs[k] : int(b.offs[k])+len(names[id])]
	}
	b.strs = cutFromOne(b.strs)
	b.recs = make([]symRec, len(c.recs))
	for i := range c.recs {
		b.recs[next[c.group[i]]] = c.recs[i]
		next[c.group[i]]++
	}
}

// cutFromOne copies strs into one string and returns them cut from it.
func cutFromOne(strs []string) []string {
	n := 0
	for _, v := range strs {
		n += len(v)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, v := range strs {
		sb.WriteString(v)
	}
	all := sb.String()
	out := make([]string, len(strs))
	at := 0
	for i, v := range strs {
		out[i] = all[at : at+len(v)]
		at += len(v)
	}
	return out
}

// nameOf is the name of r, a symbol of the group of names[k].
func (b *symBase) nameOf(r *symRec, k int) string {
	if r.name < 0 {
		return b.names[k]
	}
	return b.strs[r.name]
}

// containerOf is r's container, or "".
func (b *symBase) containerOf(r *symRec) string {
	if r.container < 0 {
		return ""
	}
	return b.strs[r.container]
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
// of the base (rec), with what ranks it.
type symCand struct {
	rank       int
	name, path string
	line       int
	sym        *chunk.Symbol
	rec        *symRec
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

// Lookup finds the symbols of files (the generation's, whose table t is)
// by exact name, then prefix, then case-insensitive substring, best first.
// "Type.Method" matches a method of Type. limit <= 0 means 50.
func (t SymbolTable) Lookup(q string, limit int, files map[string]*Entry) []chunk.Symbol {
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
	sq.t.base.build()

	found := sq.prefixes()
	overFound, subs := sq.changed(files)
	found = append(found, overFound...)
	slices.SortFunc(found, compareSymCand)
	if len(found) >= limit {
		return sq.t.base.resolve(found[:limit])
	}
	// Substring matches rank below every prefix match: look for them only
	// when the prefixes did not fill the list.
	subs = append(subs, sq.substrings()...)
	slices.SortFunc(subs, compareSymCand)
	found = append(found, subs...)
	if len(found) > limit {
		found = found[:limit]
	}
	return sq.t.base.resolve(found)
}

// symbolQuery is one Symbols lookup in a generation's table: the name q
// (lq lowered), and the container that "Type.Method" names.
type symbolQuery struct {
	q, lq, container string
	t                SymbolTable
}

// keep reports whether a record of the base table counts: in the
// container asked for, and not of a file changed since the base (those
// are searched whole, in changed).
func (sq *symbolQuery) keep(r *symRec) bool {
	b := sq.t.base
	if sq.container != "" && !strings.EqualFold(b.containerOf(r), sq.container) {
		return false
	}
	return len(sq.t.over) == 0 || !sq.t.over[b.paths[r.file]]
}

// cand is the candidate of base record r, whose name is the k-th.
func (sq *symbolQuery) cand(r *symRec, k, class int) symCand {
	b := sq.t.base
	name, path := b.nameOf(r, k), b.paths[r.file]
	return symCand{rank: rankOf(class, path, b.kinds[r.kind], name, b.containerOf(r)), name: name, path: path, line: int(r.line), rec: r}
}

// prefixes are the base table's exact and prefix matches: every name from
// lq's place in the sorted list while it starts with lq.
func (sq *symbolQuery) prefixes() []symCand {
	b := sq.t.base
	var found []symCand
	for k := sort.SearchStrings(b.names, sq.lq); k < len(b.names) && strings.HasPrefix(b.names[k], sq.lq); k++ {
		for i := b.first[k]; i < b.first[k+1]; i++ {
			r := &b.recs[i]
			if !sq.keep(r) {
				continue
			}
			class := rankPrefix
			switch {
			case b.nameOf(r, k) == sq.q:
				class = rankExact
			case b.names[k] == sq.lq:
				class = rankFold
			}
			found = append(found, sq.cand(r, k, class))
		}
	}
	return found
}

// changed are the matches among the symbols of the files changed since
// the base table: exact and prefix ones in found, substrings in subs.
func (sq *symbolQuery) changed(files map[string]*Entry) (found, subs []symCand) {
	for p := range sq.t.over {
		e := files[p]
		if e == nil {
			continue
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
	}
	return found, subs
}

// substrings are the base table's matches of lq inside a name (not at its
// start: those are prefixes), found in the table's blob of names.
func (sq *symbolQuery) substrings() []symCand {
	b := sq.t.base
	var subs []symCand
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
		for i := b.first[k]; i < b.first[k+1]; i++ {
			if r := &b.recs[i]; sq.keep(r) {
				subs = append(subs, sq.cand(r, k, rankSubstring))
			}
		}
	}
	return subs
}

// resolve gives the Symbols of the matches, decoding the symbols of each
// file a record points to once.
func (b *symBase) resolve(found []symCand) []chunk.Symbol {
	out := make([]chunk.Symbol, len(found))
	decoded := map[int32][]chunk.Symbol{}
	for i, c := range found {
		if c.sym != nil {
			out[i] = *c.sym
			continue
		}
		r := c.rec
		fs, ok := decoded[r.file]
		if !ok {
			fs = b.symbolsOf(b.entries[r.file])
			decoded[r.file] = fs
		}
		if int(r.idx) < len(fs) {
			out[i] = fs[r.idx]
			continue
		}
		// The file's symbols can no longer be read (the index was
		// closed): what the table holds, without a signature.
		out[i] = chunk.Symbol{Name: c.name, Container: b.containerOf(r), Kind: b.kinds[r.kind],
			Path: b.paths[r.file], Line: int(r.line), EndLine: int(r.end), Language: b.entries[r.file].Lang}
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
