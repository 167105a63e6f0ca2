package index

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// manifestVersion changes whenever chunking, analysis or the mapping
// change: an index written by another version is rebuilt.
const manifestVersion = 17 // 17: a brace outline ends a unit on the last line, not one past it (C files whose #if branches unbalance the braces)

// fileEntry is what the index knows of one file. Entries are immutable
// once published in a state; the writer replaces them.
type fileEntry struct {
	Size  int64
	MTime int64 // UnixNano; 0 when the content came from an open buffer
	Hash  [32]byte
	Lang  string
	Test  bool
	// Generated: the file says it is generated ("Code generated … DO NOT
	// EDIT."; see hasGeneratedMarker) and ranks as generated output.
	Generated bool
	Skip      string // why the file is not indexed ("binary", ...); "" when indexed
	Chunks    []chunk.Meta
	// DocHash[i] is the hash of what chunk i's document indexes (docHash):
	// an edit re-indexes only the chunks whose hash changed.
	DocHash []uint64
	Symbols []chunk.Symbol // when chunked here; use symbols()
	lazy    *lazySymbols   // instead of Symbols when loaded from the manifest (in the symbols file)
	// lazyChunks, when set, holds Chunks and DocHash as the manifest
	// encodes them: use chunks(), docHashes() and chunkCount().
	lazyChunks *lazyChunks
}

// chunks are the file's chunks.
func (e *fileEntry) chunks() []chunk.Meta {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().chunks
	}
	return e.Chunks
}

// docHashes are the hashes of the file's chunks' documents (see DocHash).
func (e *fileEntry) docHashes() []uint64 {
	if e.lazyChunks != nil {
		return e.lazyChunks.get().hashes
	}
	return e.DocHash
}

// chunkCount is len(e.chunks()) without decoding them.
func (e *fileEntry) chunkCount() int {
	if e.lazyChunks != nil {
		return e.lazyChunks.n
	}
	return len(e.Chunks)
}

// symbols are the file's symbols.
func (e *fileEntry) symbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.get()
	}
	return e.Symbols
}

// peekSymbols are the file's symbols, decoded without being kept when
// they are in the symbols file (see lazySymbols.peek).
func (e *fileEntry) peekSymbols() []chunk.Symbol {
	if e.lazy != nil {
		return e.lazy.peek()
	}
	return e.Symbols
}

// symbolCount is len(e.symbols()).
func (e *fileEntry) symbolCount() int {
	if e.lazy != nil {
		return e.lazy.n
	}
	return len(e.Symbols)
}

// SetChunks sets the chunks of a new entry, and the hashes of their
// documents (see DocHash).
func (e *fileEntry) SetChunks(metas []chunk.Meta, hashes []uint64) {
	e.Chunks, e.DocHash, e.lazyChunks = metas, hashes, nil
}

// SetSymbols sets the symbols of a new entry.
func (e *fileEntry) SetSymbols(syms []chunk.Symbol) { e.Symbols, e.lazy = syms, nil }

// SetPath names the file of an entry loaded from a manifest or the
// symbols file by its API path: its symbols carry it, and its language.
func (e *fileEntry) SetPath(api string) {
	if e.lazy != nil {
		e.lazy.path, e.lazy.lang = api, e.Lang
	}
}

// Compact keeps a new entry's chunks in their encoded form (as a
// manifest holds them, decoded at first use): one string without pointers
// instead of a slice of structs of strings, which a large build would
// otherwise keep on the heap, for the collector to scan, until its end.
func (e *fileEntry) Compact() {
	if e == nil || e.Skip != "" || len(e.Chunks) == 0 {
		return
	}
	e.lazyChunks = &lazyChunks{raw: string(encodeChunks(e.Chunks, e.DocHash)), n: len(e.Chunks), size: e.Size}
	e.Chunks, e.DocHash = nil, nil
}

// ForgetDocHashes drops the hashes of the entry's documents, when what
// bleve holds of the file is unknown (a batch failed): the next edit then
// re-indexes every chunk.
func (e *fileEntry) ForgetDocHashes() {
	e.Chunks, e.DocHash, e.lazyChunks = e.chunks(), nil, nil
}

// SymbolsInFile reports whether the entry's symbols are in the symbols
// file, read when asked for.
func (e *fileEntry) SymbolsInFile() bool { return e.lazy != nil }

// SymbolsKept reports whether the entry's symbols, read from the symbols
// file, are kept decoded in memory.
func (e *fileEntry) SymbolsKept() bool { return e.lazy != nil && e.lazy.kept.Load() }

// manifest is the persisted list of files of one root.
type manifest struct {
	Version int
	Root    string
	Files   map[string]*fileEntry // by path relative to the root
	// syms is the symbols file the entries' symbols are in; when saving,
	// its refs say where (symWriter.save).
	syms symbolsSaved
	// symFile is the symbols file of a loaded manifest.
	symFile *symFile
}

// Files of a root's cache folder.
const (
	manifestFile = "manifest"
	// oldManifestFile is the manifest askls wrote before the binary
	// format; a cache holding it is rebuilt once.
	oldManifestFile = "manifest.gob"
	journalFile     = "journal"
	bleveDir        = "bleve"
)

func loadManifest(dir, rootAbs string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, err
	}
	// Decoding allocates the whole table at once; callers tell
	// Options.Runtime (Decode).
	m, err := decodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	if m.Version != manifestVersion {
		return nil, fmt.Errorf("manifest version %d, this askls writes %d", m.Version, manifestVersion)
	}
	if m.Root != rootAbs {
		return nil, fmt.Errorf("manifest is for root %s", m.Root)
	}
	if m.Files == nil {
		m.Files = map[string]*fileEntry{}
	}
	if m.symFile != nil {
		m.symFile.open(dir)
	}
	return m, nil
}

// save writes the manifest atomically (temporary file, then rename).
// The symbols file m.syms names is written first (symWriter.save).
func (m *manifest) save(dir string) error {
	tmp := filepath.Join(dir, manifestFile+".tmp")
	if err := os.WriteFile(tmp, encodeManifest(m), 0o644); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, manifestFile)); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// The journal lists the files whose chunks were sent to bleve since the
// manifest was last saved, one per line, written before each batch. After
// a crash those files are the ones whose index state is unknown: the next
// start deletes whatever bleve holds for them and indexes them again.

func readJournal(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, journalFile))
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
