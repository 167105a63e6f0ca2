package store

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// ManifestVersion changes whenever chunking, analysis or the mapping
// change: an index written by another version is rebuilt.
const ManifestVersion = 23 // 23: a test suite folder named by a part (spec-test, unit_tests) holds tests, _example/ examples, a Python .dist-info/.egg-info folder packaging (corpus.Classify); 22: C++ members defined out of their class are methods of it (widget::render), operators and in-class constructors are units, a template line goes with its declaration, and .ipp/.tpp/.inl/.tcc files are C++ (index/chunk/outline_cpp.go); 21: a C include guard's #define is no unit (index/chunk/outline_guard.go); 20: outline fixes (Java and C names below their return type, C++ specializations and macro-prefixed methods, JS exported object literals, no units in Python strings, Rust fns of kind test) and C/C++ test files (corpus.Classify); 19: the entries in a table of fixed-width records before the chunk blocks (ASKLSMF3; manifest_table.go); 18: a brace outline ends a unit on the last line, not one past it (C files whose #if branches unbalance the braces); 17: the units of Rust's in-file test modules are indexed as tests (corpus.TestUnit)

// Entry is what the index knows of one file. Entries are immutable
// once published in a state; the writer replaces them.
type Entry struct {
	Size  int64
	MTime int64 // UnixNano; 0 when the content came from an open buffer
	Hash  [32]byte
	Lang  string
	Test  bool
	// Generated: the file says it is generated ("Code generated … DO NOT
	// EDIT."; see corpus.IsGenerated) and ranks as generated output.
	Generated bool
	Skip      string // why the file is not indexed ("binary", ...); "" when indexed
	// fresh holds what a new entry was made with: see freshParts; nil
	// for an entry loaded from a manifest.
	fresh *freshParts
	lazy  *lazySymbols // instead of Symbols when loaded from the manifest (in the symbols file)
	// lazyChunks, when set, holds Chunks and DocHash as the manifest
	// encodes them: use Chunks(), DocHashes() and ChunkCount().
	lazyChunks *lazyChunks
}

// freshParts are a new entry's chunks, their documents' hashes and its
// symbols, until its chunks are compacted and its symbols written to the
// symbols file. One pointer in an Entry rather than three slices: an
// entry loaded from a manifest has none of them, and a warm start on the
// kernel makes 78,000 entries (64 bytes each less memory touched for the
// first time). Never changed in place: an Entry copied by value shares
// it (setFresh makes another).
type freshParts struct {
	metas []chunk.Meta
	// hashes[i] is the hash of what chunk i's document indexes
	// (DocHash): an edit re-indexes only the chunks whose hash changed.
	hashes []uint64
	syms   []chunk.Symbol // when chunked here; use Symbols()
}

// setFresh sets the entry's fresh parts (none when all are nil).
func (e *Entry) setFresh(metas []chunk.Meta, hashes []uint64, syms []chunk.Symbol) {
	if metas == nil && hashes == nil && syms == nil {
		e.fresh = nil
		return
	}
	e.fresh = &freshParts{metas: metas, hashes: hashes, syms: syms}
}

func (e *Entry) freshMetas() []chunk.Meta {
	if e.fresh == nil {
		return nil
	}
	return e.fresh.metas
}

func (e *Entry) freshHashes() []uint64 {
	if e.fresh == nil {
		return nil
	}
	return e.fresh.hashes
}

func (e *Entry) freshSyms() []chunk.Symbol {
	if e.fresh == nil {
		return nil
	}
	return e.fresh.syms
}

// chunks are the file's chunks.
func (e *Entry) Chunks() []chunk.Meta {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().chunks
	}
	return e.freshMetas()
}

// docHashes are the hashes of the file's chunks' documents (see DocHash).
func (e *Entry) DocHashes() []uint64 {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().hashes
	}
	return e.freshHashes()
}

// chunkCount is len(e.Chunks()) without decoding them.
func (e *Entry) ChunkCount() int {
	if e.lazyChunks != nil {
		return e.lazyChunks.n
	}
	return len(e.freshMetas())
}

// symbols are the file's symbols.
func (e *Entry) Symbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.get()
	}
	return e.freshSyms()
}

// peekSymbols are the file's symbols, decoded without being kept when
// they are in the symbols file (see lazySymbols.peek).
func (e *Entry) PeekSymbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.peek()
	}
	return e.freshSyms()
}

// symbolCount is len(e.Symbols()).
func (e *Entry) SymbolCount() int {
	if e.lazy != nil {
		return e.lazy.n
	}
	return len(e.freshSyms())
}

// SetChunks sets the chunks of a new entry, and the hashes of their
// documents (see DocHash).
func (e *Entry) SetChunks(metas []chunk.Meta, hashes []uint64) {
	e.setFresh(metas, hashes, e.freshSyms())
	e.lazyChunks = nil
}

// SetSymbols sets the symbols of a new entry.
func (e *Entry) SetSymbols(syms []chunk.Symbol) {
	e.setFresh(e.freshMetas(), e.freshHashes(), syms)
	e.lazy = nil
}

// SetPath names the file of an entry loaded from a manifest or the
// symbols file by its API path: its symbols carry it, and its language.
func (e *Entry) SetPath(api string) {
	if e.lazy != nil {
		e.lazy.path = api
	}
}

// Compact keeps a new entry's chunks in their encoded form (as a
// manifest holds them, decoded at first use): one string without pointers
// instead of a slice of structs of strings, which a large build would
// otherwise keep on the heap, for the collector to scan, until its end.
func (e *Entry) Compact() {
	if e == nil || e.Skip != "" || len(e.freshMetas()) == 0 {
		return
	}
	metas := e.freshMetas()
	e.lazyChunks = &lazyChunks{raw: string(encodeChunks(metas, e.freshHashes())), n: len(metas), size: e.Size}
	e.setFresh(nil, nil, e.freshSyms())
}

// ForgetDocHashes drops the hashes of the entry's documents, when what
// bleve holds of the file is unknown (a batch failed): the next edit then
// re-indexes every chunk.
func (e *Entry) ForgetDocHashes() {
	e.setFresh(e.Chunks(), nil, e.freshSyms())
	e.lazyChunks = nil
}

// SymbolsInFile reports whether the entry's symbols are in the symbols
// file, read when asked for.
func (e *Entry) SymbolsInFile() bool { return e.lazy != nil }

// SymbolsKept reports whether the entry's symbols, read from the symbols
// file, are kept decoded in memory.
func (e *Entry) SymbolsKept() bool { return e.lazy != nil && e.lazy.kept.Load() != nil }

// manifest is the persisted list of files of one root.
type Manifest struct {
	Version int
	Root    string
	Files   map[string]*Entry // by path relative to the root
	// syms is the symbols file the entries' symbols are in; when saving,
	// its refs say where (SymWriter.save).
	syms symbolsSaved
	// symFile is the symbols file of a loaded manifest.
	symFile *symFile
	// chunks counts the chunks of the indexed entries of a decoded
	// manifest, as the decode met them (consistent compares it with
	// bleve's document count); 0 for a new one. Files changed since are
	// not counted.
	chunks uint64
	// blocks counts the entries of a decoded manifest whose chunk blocks
	// lie in its data (lazyChunks).
	blocks int
}

// Files of a root's cache folder.
const (
	ManifestFile = "manifest"
	// OldManifestFile is the manifest askls wrote before the binary
	// format; a cache holding it is rebuilt once.
	OldManifestFile = "manifest.gob"
	JournalFile     = "journal"
	BleveDir        = "bleve"
)

func LoadManifest(dir, rootAbs string) (*Manifest, error) {
	// The pages are mapped at once (populated) only when the checksum
	// reads them all; else the decode reads the header, the table and the
	// paths, and a chunk block is read when asked for.
	checked := false
	data, mapped, info, err := mapFile(filepath.Join(dir, ManifestFile), func(info fs.FileInfo) bool {
		checked = manifestChecked(dir, info)
		return !checked
	})
	if err != nil {
		return nil, err
	}
	var src *mappedManifest
	if mapped {
		src = &mappedManifest{data: data}
	}
	m, err := checkManifest(data, src, rootAbs, checked)
	if err == nil && !checked {
		recordManifestChecked(dir, info)
	}
	if src != nil {
		if err != nil || m.blocks == 0 {
			unmapFile(data) // nothing refers to it
		} else {
			dropPages(data)
			runtime.AddCleanup(src, unmapFile, data)
		}
	}
	if err != nil {
		return nil, err
	}
	if m.symFile != nil {
		m.symFile.open(dir)
	}
	return m, nil
}

// mappedManifest is a manifest file mapped read-only (mapFile). Only the
// entries' chunk blocks stay in it (lazyChunks.src): it is unmapped once
// none refers to it. Reading it whole (the checksum) maps every page;
// they are then let go (dropPages), and a chunk block's decode maps back
// the few it reads.
type mappedManifest struct{ data []byte }

// checkManifest decodes data, mapped as src or on the heap (src nil), and
// checks that it is a manifest of this version for rootAbs. A mapped
// file cut short under the decode is an error, not a crash.
func checkManifest(data []byte, src *mappedManifest, rootAbs string, checked bool) (*Manifest, error) {
	var m *Manifest
	decode := func() (err error) {
		// Decoding allocates the whole table at once; callers tell
		// Options.Runtime (Decode).
		m, err = decodeManifest(data, src, checked)
		return err
	}
	var err error
	if src != nil {
		err = faultsAsErrors(data, decode)
	} else {
		err = decode()
	}
	if err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	if m.Version != ManifestVersion {
		return nil, fmt.Errorf("manifest version %d, this askls writes %d", m.Version, ManifestVersion)
	}
	if m.Root != rootAbs {
		return nil, fmt.Errorf("manifest is for root %s", m.Root)
	}
	if m.Files == nil {
		m.Files = map[string]*Entry{}
	}
	return m, nil
}

// encode is EncodeManifest, with a fault reading a mapped manifest's
// chunk block (the file cut short by another program) an error.
func (m *Manifest) encode() (data []byte, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !m.faultInMapping(r) {
				panic(r)
			}
			err = fmt.Errorf("a mapped manifest changed while it was read: %v", r)
		}
	}()
	return EncodeManifest(m), nil
}

// faultInMapping reports whether r, a recovered panic, is a memory fault
// in a mapping that an entry's chunk blocks lie in.
func (m *Manifest) faultInMapping(r any) bool {
	for _, e := range m.Files {
		if e.lazyChunks != nil && e.lazyChunks.src != nil && faultIn(r, e.lazyChunks.src.data) {
			return true
		}
	}
	return false
}

// save writes the manifest atomically (temporary file, then rename).
// The symbols file m.syms names is written first (SymWriter.save).
func (m *Manifest) Save(dir string) error {
	tmp := filepath.Join(dir, ManifestFile+".tmp")
	data, err := m.encode()
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, ManifestFile)); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// The journal lists the files whose chunks were sent to bleve since the
// manifest was last saved, one per line, written before each batch. After
// a crash those files are the ones whose index state is unknown: the next
// start deletes whatever bleve holds for them and indexes them again.

func ReadJournal(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
