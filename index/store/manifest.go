package store

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// ManifestVersion changes whenever chunking, analysis or the mapping
// change: an index written by another version is rebuilt.
const ManifestVersion = 18 // 18: a brace outline ends a unit on the last line, not one past it (C files whose #if branches unbalance the braces); 17: the units of Rust's in-file test modules are indexed as tests (corpus.TestUnit)

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
	metas     []chunk.Meta
	// DocHash[i] is the hash of what chunk i's document indexes (DocHash):
	// an edit re-indexes only the chunks whose hash changed.
	hashes []uint64
	syms   []chunk.Symbol // when chunked here; use Symbols()
	lazy   *lazySymbols   // instead of Symbols when loaded from the manifest (in the symbols file)
	// lazyChunks, when set, holds Chunks and DocHash as the manifest
	// encodes them: use Chunks(), DocHashes() and ChunkCount().
	lazyChunks *lazyChunks
}

// chunks are the file's chunks.
func (e *Entry) Chunks() []chunk.Meta {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().chunks
	}
	return e.metas
}

// docHashes are the hashes of the file's chunks' documents (see DocHash).
func (e *Entry) DocHashes() []uint64 {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().hashes
	}
	return e.hashes
}

// chunkCount is len(e.Chunks()) without decoding them.
func (e *Entry) ChunkCount() int {
	if e.lazyChunks != nil {
		return e.lazyChunks.n
	}
	return len(e.metas)
}

// symbols are the file's symbols.
func (e *Entry) Symbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.get()
	}
	return e.syms
}

// peekSymbols are the file's symbols, decoded without being kept when
// they are in the symbols file (see lazySymbols.peek).
func (e *Entry) PeekSymbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.peek()
	}
	return e.syms
}

// symbolCount is len(e.Symbols()).
func (e *Entry) SymbolCount() int {
	if e.lazy != nil {
		return e.lazy.n
	}
	return len(e.syms)
}

// SetChunks sets the chunks of a new entry, and the hashes of their
// documents (see DocHash).
func (e *Entry) SetChunks(metas []chunk.Meta, hashes []uint64) {
	e.metas, e.hashes, e.lazyChunks = metas, hashes, nil
}

// SetSymbols sets the symbols of a new entry.
func (e *Entry) SetSymbols(syms []chunk.Symbol) { e.syms, e.lazy = syms, nil }

// SetPath names the file of an entry loaded from a manifest or the
// symbols file by its API path: its symbols carry it, and its language.
func (e *Entry) SetPath(api string) {
	if e.lazy != nil {
		e.lazy.path, e.lazy.lang = api, e.Lang
	}
}

// Compact keeps a new entry's chunks in their encoded form (as a
// manifest holds them, decoded at first use): one string without pointers
// instead of a slice of structs of strings, which a large build would
// otherwise keep on the heap, for the collector to scan, until its end.
func (e *Entry) Compact() {
	if e == nil || e.Skip != "" || len(e.metas) == 0 {
		return
	}
	e.lazyChunks = &lazyChunks{raw: string(encodeChunks(e.metas, e.hashes)), n: len(e.metas), size: e.Size}
	e.metas, e.hashes = nil, nil
}

// ForgetDocHashes drops the hashes of the entry's documents, when what
// bleve holds of the file is unknown (a batch failed): the next edit then
// re-indexes every chunk.
func (e *Entry) ForgetDocHashes() {
	e.metas, e.hashes, e.lazyChunks = e.Chunks(), nil, nil
}

// SymbolsInFile reports whether the entry's symbols are in the symbols
// file, read when asked for.
func (e *Entry) SymbolsInFile() bool { return e.lazy != nil }

// SymbolsKept reports whether the entry's symbols, read from the symbols
// file, are kept decoded in memory.
func (e *Entry) SymbolsKept() bool { return e.lazy != nil && e.lazy.kept.Load() }

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
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	// Decoding allocates the whole table at once; callers tell
	// Options.Runtime (Decode).
	m, err := DecodeManifest(data)
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
	if m.symFile != nil {
		m.symFile.open(dir)
	}
	return m, nil
}

// save writes the manifest atomically (temporary file, then rename).
// The symbols file m.syms names is written first (SymWriter.save).
func (m *Manifest) Save(dir string) error {
	tmp := filepath.Join(dir, ManifestFile+".tmp")
	if err := os.WriteFile(tmp, EncodeManifest(m), 0o644); err != nil {
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
