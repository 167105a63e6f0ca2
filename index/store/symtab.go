package store

import (
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/askls/askls/index/chunk"
)

// The symbol table answers Symbols without scanning every symbol.
//
// A symBase is the table of one root's files in some generation: every
// distinct lower-case name, sorted (exact and prefix lookups are a binary
// search), joined in one string (a substring lookup is strings.Index over
// it, not a ToLower per symbol). Each symbol is a small record (symRec:
// its names, file, line, kind and place in its file's list), not a
// decoded Symbol: the few symbols a lookup returns are decoded from their
// files' blocks in the symbols file (the Linux tree's 2.9 million decoded
// symbols held 600 MB).
//
// A base is kept on disk beside the manifest (symtab_file.go), so that a
// process's first lookup reads it instead of building it: the base is
// made ready once, on first use or by BuildAsync, by reading the root's
// table file when it is usable (its version, its checksum) and describes
// the files closely enough (a blake3 hash per file: the files whose hash
// differs, and those it lacks, are "stale" and searched in their entries),
// else by building it from the files' symbols and writing the file.
//
// Later generations share the bases and list the files that changed since
// they were made ("over"): their symbols are read from the generation's
// own entries and their stale base records are skipped. An edit therefore
// costs a diff of the file maps, not a rebuild; when more than MaxOver
// files have changed, the next generation starts new bases.

// Tuner hears of each symbol table built (the façade passes its
// RuntimeTuner).
type Tuner interface{ SymbolTableBuilt(n int) }

// SymRoot is one root of the files a symbol table covers.
type SymRoot struct {
	// Prefix starts the API paths of the root's files: "" for the only
	// root, "name/" for one of several.
	Prefix string
	// Dir is the root's cache folder, where its table is kept; "" keeps
	// none (a temporary index).
	Dir string
}

// symShared is what every generation's table of one index shares.
type symShared struct {
	tune  Tuner        // told of each base's build; nil: none
	log   *slog.Logger // nil: no log
	roots []SymRoot    // at least one

	builds atomic.Int64 // bases built from the files' symbols (not read)
	reads  atomic.Int64 // bases read from their table files

	mu     sync.Mutex // held while a table file is written
	closed bool       // the index is closed: write no table file
}

// NewSymbolTable is the empty table a first generation's table follows
// (NextSymbolTable), with the tuner it hands on, for one root whose table
// is not kept on disk.
func NewSymbolTable(tune Tuner) SymbolTable {
	return SymbolTable{sh: &symShared{tune: tune, roots: []SymRoot{{}}}}
}

// NewStoredSymbolTable is the empty table of an index of roots, whose
// bases are kept in the roots' cache folders.
func NewStoredSymbolTable(tune Tuner, log *slog.Logger, roots []SymRoot) SymbolTable {
	if len(roots) == 0 {
		roots = []SymRoot{{}}
	}
	return SymbolTable{sh: &symShared{tune: tune, log: log, roots: roots}}
}

// MaxOver is how many changed files a generation may list before it gets
// bases of its own.
const MaxOver = 256

// SymbolTable is the symbol table of one generation: immutable.
type SymbolTable struct {
	bases []*symBase      // one per root, in the roots' order
	over  map[string]bool // API paths whose symbols come from the generation's entries, not the bases
	sh    *symShared      // nil only in the zero table
}

// Built reports whether the table's bases are ready (built or read; a
// lookup makes them so).
func (t SymbolTable) Built() bool {
	for _, b := range t.bases {
		if !b.done.Load() {
			return false
		}
	}
	return len(t.bases) > 0
}

// FreshSymbolTable is a table of new bases for files (not yet ready),
// sharing prev's roots, cache folders and counters: what
// NextSymbolTable returns when too many files changed. files must not
// change afterwards.
func FreshSymbolTable(prev SymbolTable, files map[string]*Entry) SymbolTable {
	return prev.shared().newBases(files)
}

// IsZero reports whether t is the zero SymbolTable (no roots).
func (t SymbolTable) IsZero() bool { return t.sh == nil && len(t.bases) == 0 }

// Build makes the table's bases ready now, unless they are.
func (t SymbolTable) Build() {
	for _, b := range t.bases {
		b.ready()
	}
}

// BuildAsync makes the bases ready in the background unless they are.
func (t SymbolTable) BuildAsync() {
	if len(t.bases) > 0 {
		go t.Build()
	}
}

// Count is the number of symbols in the table's bases, once ready.
func (t SymbolTable) Count() int {
	n := 0
	for _, b := range t.bases {
		if b.done.Load() {
			n += b.count
		}
	}
	return n
}

// Builds and Reads count the bases this index's tables built from the
// files' symbols and read from their table files.
func (t SymbolTable) Builds() int64 { return t.shared().builds.Load() }
func (t SymbolTable) Reads() int64  { return t.shared().reads.Load() }

func (t SymbolTable) shared() *symShared {
	if t.sh == nil {
		return &symShared{roots: []SymRoot{{}}}
	}
	return t.sh
}

// Close stops the table from writing table files (the index is closing:
// its cache folder is about to be unlocked); it waits for a write under
// way.
func (t SymbolTable) Close() {
	if t.sh == nil {
		return
	}
	t.sh.mu.Lock()
	t.sh.closed = true
	t.sh.mu.Unlock()
}

// symBase is the sorted table of the symbols of one root's files.
type symBase struct {
	files map[string]*Entry // the root's files in the generation it was made for (read-only)
	root  SymRoot
	sh    *symShared

	once sync.Once
	done atomic.Bool // the fields below are set (after once)

	blob  string   // "\x00" + names joined by "\x00" + "\x00"
	offs  []int32  // offs[k]: where names[k] starts in blob; offs[n] = len(blob)
	first []int32  // symbols of names[k] are recs[first[k]:first[k+1]]
	recs  []symRec // grouped by name
	count int      // symbols in the table

	// What the records point to.
	paths   []string // API paths by file number, sorted
	entries []*Entry // by file number; nil: stale (read bases), skipped
	strBlob string   // names and containers in their own case, joined
	strOffs []int32  // string i is strBlob[strOffs[i]:strOffs[i+1]]
	kinds   []string // kinds, by number

	// stale are the API paths of a base read from its file whose records
	// do not describe the generation's entry (or that it lacks): they are
	// searched in their entries, as files changed since are.
	stale       map[string]bool
	keepDecoded bool   // see KeepDecodedBelow
	data        []byte // the table file a read base's fields point into
	mapped      bool   // data is mapped (mapfile_unix.go), not on the heap
}

// names is the number of distinct names.
func (b *symBase) names() int { return len(b.first) - 1 }

// name is the k-th lower-case name.
func (b *symBase) name(k int) string { return b.blob[b.offs[k] : b.offs[k+1]-1] }

// str is the i-th name or container in its own case.
func (b *symBase) str(i int32) string { return b.strBlob[b.strOffs[i]:b.strOffs[i+1]] }

// ready makes the base ready once: read from its table file when that can
// be used, else built (and the file written).
func (b *symBase) ready() {
	b.once.Do(func() {
		if b.readFile() {
			b.sh.reads.Add(1)
		} else {
			b.build()
			b.sh.builds.Add(1)
			if b.sh.tune != nil {
				b.sh.tune.SymbolTableBuilt(b.count)
			}
			b.writeFile()
		}
		b.done.Store(true)
	})
}

// symbolsOf are e's symbols, kept decoded or not (KeepDecodedBelow).
func (b *symBase) symbolsOf(e *Entry) []chunk.Symbol {
	if b.keepDecoded {
		return e.Symbols()
	}
	return e.PeekSymbols()
}

// symRec is one symbol of a symBase. Table files hold the records as
// they are in memory (28 bytes, little-endian).
type symRec struct {
	name, container int32 // in strs; name -1: its group's lower-case name; container -1: none
	file            int32 // in paths and entries
	idx             int32 // its place in its file's symbols
	line, end       int32
	kind            int16 // in kinds
}

// KeepDecodedBelow: a table of fewer symbols than this keeps the decoded
// symbols of the files its lookups return (GOROOT's 228,000 take about
// 60 MB when all are); a larger one decodes them again for each lookup
// (the Linux tree's 2.9 million took 600 MB).
var KeepDecodedBelow = 500_000

// newBases are bases for the files of a generation, one per root.
func (sh *symShared) newBases(files map[string]*Entry) SymbolTable {
	t := SymbolTable{bases: make([]*symBase, len(sh.roots)), sh: sh}
	if len(sh.roots) == 1 {
		t.bases[0] = &symBase{files: files, root: sh.roots[0], sh: sh}
		return t
	}
	for i, r := range sh.roots {
		t.bases[i] = &symBase{files: map[string]*Entry{}, root: r, sh: sh}
	}
	for p, e := range files {
		t.bases[sh.rootOf(p)].files[p] = e
	}
	return t
}

// rootOf is the number of the root of the API path p.
func (sh *symShared) rootOf(p string) int {
	if len(sh.roots) > 1 {
		for i, r := range sh.roots {
			if strings.HasPrefix(p, r.Prefix) {
				return i
			}
		}
	}
	return 0
}

// NextSymbolTable is the table for a generation with files, given the table of
// the previous one. changed, when not nil, lists every path whose entry may
// differ from the previous generation's: the others are not compared.
func NextSymbolTable(prev SymbolTable, files map[string]*Entry, changed map[string]bool) SymbolTable {
	sh := prev.shared()
	empty := true
	for _, b := range prev.bases {
		empty = empty && len(b.files) == 0
	}
	if empty {
		return sh.newBases(files)
	}
	if changed != nil {
		// Listing a path whose entry did not change is harmless: its
		// symbols are read from the generation instead of the base.
		if len(prev.over)+len(changed) > MaxOver {
			return sh.newBases(files)
		}
		over := make(map[string]bool, len(prev.over)+len(changed))
		for p := range prev.over {
			over[p] = true
		}
		for p := range changed {
			over[p] = true
		}
		return SymbolTable{bases: prev.bases, over: over, sh: sh}
	}
	over := map[string]bool{}
	for p, e := range files {
		if prev.bases[sh.rootOf(p)].files[p] != e {
			over[p] = true
			if len(over) > MaxOver {
				return sh.newBases(files)
			}
		}
	}
	for _, b := range prev.bases {
		for p := range b.files {
			if _, ok := files[p]; !ok {
				over[p] = true
				if len(over) > MaxOver {
					return sh.newBases(files)
				}
			}
		}
	}
	return SymbolTable{bases: prev.bases, over: over, sh: sh}
}
