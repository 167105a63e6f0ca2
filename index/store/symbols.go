package store

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/askls/askls/index/chunk"
	"github.com/zeebo/blake3"
)

// The symbols of a root's files live beside the manifest, in a file of
// their own (symbols-<id>), and are read only when a symbol is looked up:
// on the Linux tree they are 270 MB of the 400 MB a single manifest held,
// which every `askls search` read and checksummed to use none of them.
//
// The file is a header (symbolsMagic, then the file's id, 8 bytes) and
// one block per file: the count and the symbols (appendSymbolsBlock), then a
// CRC-32C of them (4 bytes). The manifest names the file and its id,
// the length of the file it relies on, and for each entry the offset and
// length of its block.
//
// A save appends the blocks of the files whose symbols changed and then
// replaces the manifest: a crash between the two leaves bytes that no
// manifest points to, never a manifest pointing at bytes not written.
// When the file holds more dead bytes than live ones, a save writes a new
// file (a new id, so a new name) with the live blocks only, then the
// manifest, then removes the old file. A block that is missing or fails
// its check (a torn write on power loss, damage on disk) is not trusted:
// the file's symbols are computed again from its content, when that
// content is still the one the entry's hash describes.

// symbolsMagic starts a symbols file.
const symbolsMagic = "ASKLSSY1"

// SymbolsPrefix names a root's symbols files: symbols-<id in hex>.
const SymbolsPrefix = "symbols-"

// SymbolsHeaderLen is the length of a symbols file's header.
const SymbolsHeaderLen = len(symbolsMagic) + 8

// symFile is one symbols file, open for reading while an entry may need
// one of its blocks: each block is read when its entry's symbols are
// asked for (the symbol table asks for all of them when it is built, not
// when it is read from its file).
// Safe for concurrent use.
type symFile struct {
	root string // the root's real path (of the manifest)
	name string // base name in the cache folder
	id   uint64

	mu  sync.Mutex
	f   *os.File // nil until open, or when it could not be opened
	err error    // why f is nil after open
}

// open opens the symbols file in dir once. A missing file is not an
// error here: the symbols of its blocks are computed again when asked for
// (lazySymbols.get).
func (sf *symFile) open(dir string) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if sf.f != nil || sf.err != nil {
		return
	}
	if sf.name == "" {
		sf.err = errors.New("no symbols file")
		return
	}
	f, err := os.Open(filepath.Join(dir, sf.name))
	if err == nil {
		var head [SymbolsHeaderLen]byte
		if _, err = f.ReadAt(head[:], 0); err == nil &&
			(string(head[:len(symbolsMagic)]) != symbolsMagic || binary.LittleEndian.Uint64(head[len(symbolsMagic):]) != sf.id) {
			err = fmt.Errorf("%s is not the symbols file the manifest names", sf.name)
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		sf.err = err
		return
	}
	sf.f = f
}

// close closes the file: blocks not read yet are computed again if asked
// for.
func (sf *symFile) close() {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if sf.f != nil {
		sf.f.Close()
		sf.f = nil
	}
	if sf.err == nil {
		sf.err = os.ErrClosed
	}
}

// block reads the symbols block at off (length n, its checksum included)
// and returns it with its checksum, or false when the file or the block
// cannot be trusted. closed is true when the index was closed: nothing
// needs the block any more.
func (sf *symFile) block(off, n int64) (b []byte, ok, closed bool) {
	sf.mu.Lock()
	f, err := sf.f, sf.err
	sf.mu.Unlock()
	if f == nil || off < int64(SymbolsHeaderLen) || n < 5 {
		return nil, false, err == os.ErrClosed
	}
	b = make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, false, errors.Is(err, os.ErrClosed) // ReadAt is safe beside close: it fails
	}
	if crc32.Checksum(b[:n-4], castagnoli) != binary.LittleEndian.Uint32(b[n-4:]) {
		return nil, false, false
	}
	return b, true, false
}

// symRef locates one entry's block in a symbols file.
type symRef struct {
	off, n int64
}

// lazySymbols are a file's symbols as the symbols file holds them,
// decoded at first use: a warm start reads none of them; the symbol
// table reads them all when it is built (not when read from its file).
type lazySymbols struct {
	file *symFile
	ref  symRef
	n    int    // the count
	path string // filled into each symbol, with its entry's language; set by Open (SetPath)
	// For a block that cannot be trusted: the file, relative to the
	// root, and its entry (the hash of the content the symbols were
	// computed from). Kept small: a warm start makes one per file (the
	// kernel's 78,000), and on some machines memory touched for the
	// first time costs more than decoding it.
	rel string
	e   *Entry

	kept atomic.Pointer[[]chunk.Symbol] // the symbols, once get decoded them
}

// lang is the language filled into each symbol: the entry's, once
// SetPath named it.
func (l *lazySymbols) lang() string {
	if l.path == "" {
		return ""
	}
	return l.e.Lang
}

// get decodes the symbols and keeps them. Two first calls at once may
// both decode; one result is kept.
func (l *lazySymbols) get() []chunk.Symbol {
	if p := l.kept.Load(); p != nil {
		return *p
	}
	syms := l.decode()
	if l.kept.CompareAndSwap(nil, &syms) {
		return syms
	}
	return *l.kept.Load()
}

// peek is the symbols without keeping them: those get kept, else decoded
// again. The symbol table reads every file's this way, and keeps only
// what it needs.
func (l *lazySymbols) peek() []chunk.Symbol {
	if p := l.kept.Load(); p != nil {
		return *p
	}
	return l.decode()
}

// decode reads and decodes the block, or computes the symbols again from
// the file when the block cannot be trusted.
func (l *lazySymbols) decode() []chunk.Symbol {
	b, ok, closed := l.file.block(l.ref.off, l.ref.n)
	switch {
	case ok:
		// The symbols' strings are cut from b, which they keep.
		return decodeSymbols(unsafe.String(unsafe.SliceData(b), len(b)-4), l.path, l.lang())
	case closed:
		return nil // the index is closed: not worth reading every file again
	}
	return deriveSymbols(l.file.root, l.rel, l.path, l.lang(), l.e.Hash)
}

// deriveSymbols computes the symbols of the file rel of root again, when
// its content still has the given hash; otherwise none (the next sync
// re-indexes the file).
func deriveSymbols(root, rel, api, lang string, hash [32]byte) []chunk.Symbol {
	if root == "" || rel == "" {
		return nil
	}
	content, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil || blake3.Sum256(content) != hash {
		return nil
	}
	_, syms := chunk.File(api, lang, content)
	return syms
}

// SymWriter is a root's symbols file as the writer goroutine keeps it:
// the file the last saved manifest names (or a newer one), and where each
// entry's block is. A sync streams the symbols of the files it indexes
// into it (add) instead of keeping them in memory; a save writes what
// entries made by edits still hold in memory, and names the file in the
// manifest.
type SymWriter struct {
	file *symFile // read side, shared with the entries' lazySymbols; nil before the first file
	wf   *os.File // write side, open while the writer appends
	size int64    // the file's length as written (blocks no manifest names included)
	// refs locate the blocks of entries made by this process that hold
	// their symbols in memory (entries are immutable: the pointer names
	// the content).
	refs map[*Entry]symRef
}

// NewSymWriter is the writer of the symbols file that m names.
func NewSymWriter(m *Manifest) SymWriter { return SymWriter{file: m.symFile, size: m.syms.used} }

// shareSymbolsFile makes the entries of m, a manifest just saved and read
// again, read their symbols from w's file when m names it (the one the
// root already reads), instead of opening it a second time.
func (m *Manifest) ShareSymbolsFile(w *SymWriter) {
	sf := m.symFile
	if cur := w.file; cur != nil && sf != nil && cur.id == sf.id {
		sf.close()
		sf = cur
	}
	for _, e := range m.Files {
		if e.lazy != nil {
			e.lazy.file = sf
		}
	}
}

// SaveManifest writes the manifest of files to dir: the symbols file
// first (appending the blocks it lacks, or a new file; w.save), then the
// manifest naming it, then it removes the symbols files no manifest
// names. It runs on the writer goroutine.
func SaveManifest(dir, rootReal string, files map[string]*Entry, w *SymWriter) error {
	m := &Manifest{Version: ManifestVersion, Root: rootReal, Files: files}
	saved, err := w.save(dir, rootReal, m.Files)
	if err != nil {
		return err
	}
	m.syms = saved
	if err := m.Save(dir); err != nil {
		return err
	}
	removeOtherSymbolFiles(dir, saved.name)
	return nil
}

// symbolsSaved is what a save of the symbols tells the manifest.
type symbolsSaved struct {
	name string
	id   uint64
	used int64
	refs map[string]symRef // by rel path; absent: no symbols
}

// writable makes sure there is a file to append to: the current one, or
// a new one when there is none or it cannot be written.
func (w *SymWriter) writable(dir, rootReal string) error {
	if w.wf != nil {
		return nil
	}
	if w.file != nil && w.file.name != "" {
		if f, err := os.OpenFile(filepath.Join(dir, w.file.name), os.O_WRONLY, 0); err == nil {
			w.wf = f
			return nil
		}
	}
	return w.create(dir, rootReal, nil)
}

// add appends the symbols of e, a new entry of the file rel that no
// state holds yet, and makes e read them from the file from now on. On a
// write error e keeps them in memory (a save writes them).
func (w *SymWriter) Add(dir, rootReal, rel string, e *Entry) {
	if len(e.freshSyms()) == 0 || w.writable(dir, rootReal) != nil {
		return
	}
	buf := appendSymbolsBlock(nil, e.freshSyms())
	if _, err := w.wf.WriteAt(buf, w.size); err != nil {
		return
	}
	ref := symRef{off: w.size, n: int64(len(buf))}
	w.size += ref.n
	e.lazy = &lazySymbols{file: w.file, ref: ref, n: len(e.freshSyms()), rel: rel, e: e}
	e.setFresh(e.freshMetas(), e.freshHashes(), nil)
}

// save makes the file hold the blocks of files, appending those it lacks,
// or writes a new one when the current one would be more than half dead
// bytes, and says where each entry's block is. It runs on the writer
// goroutine, before the manifest is written.
func (w *SymWriter) save(dir, rootReal string, files map[string]*Entry) (symbolsSaved, error) {
	var live int64
	have := map[string]symRef{}
	var need []string
	for rel, e := range files {
		if e.Skip != "" || e.SymbolCount() == 0 {
			continue
		}
		if ref, ok := w.refOf(e); ok {
			have[rel] = ref
			live += ref.n
			continue
		}
		need = append(need, rel)
	}
	if w.file == nil || w.size-int64(SymbolsHeaderLen) > 2*live+(1<<20) || w.writable(dir, rootReal) != nil {
		return w.rewrite(dir, rootReal, files)
	}
	out := symbolsSaved{name: w.file.name, id: w.file.id, refs: make(map[string]symRef, len(have)+len(need))}
	refs := map[*Entry]symRef{}
	for rel, ref := range have {
		out.refs[rel] = ref
		if e := files[rel]; e.lazy == nil || e.lazy.file.id != w.file.id {
			refs[e] = ref
		}
	}
	var buf []byte
	pos := w.size
	for _, rel := range need {
		e := files[rel]
		start := len(buf)
		buf = appendBlockOf(buf, e)
		ref := symRef{off: pos + int64(start), n: int64(len(buf) - start)}
		out.refs[rel] = ref
		refs[e] = ref
	}
	if _, err := w.wf.WriteAt(buf, pos); err != nil {
		return out, fmt.Errorf("append to %s: %w", w.file.name, err)
	}
	w.size = pos + int64(len(buf))
	w.refs = refs
	out.used = w.size
	return out, nil
}

// refOf is where the current file holds e's symbols, if it does.
func (w *SymWriter) refOf(e *Entry) (symRef, bool) {
	if w.file == nil {
		return symRef{}, false
	}
	if e.lazy != nil && e.lazy.file.id == w.file.id {
		return e.lazy.ref, true
	}
	ref, ok := w.refs[e]
	return ref, ok
}

// rewrite writes a new symbols file holding the blocks of files only, and
// makes it the current one.
func (w *SymWriter) rewrite(dir, rootReal string, files map[string]*Entry) (symbolsSaved, error) {
	if err := w.create(dir, rootReal, files); err != nil {
		return symbolsSaved{}, err
	}
	out := symbolsSaved{name: w.file.name, id: w.file.id, used: w.size, refs: make(map[string]symRef, len(w.refs))}
	for rel, e := range files {
		if ref, ok := w.refs[e]; ok {
			out.refs[rel] = ref
		}
	}
	return out, nil
}

// create writes a new symbols file holding the blocks of files, opens it
// for reading and appending, and makes it the current one.
func (w *SymWriter) create(dir, rootReal string, files map[string]*Entry) error {
	var idb [8]byte
	if _, err := rand.Read(idb[:]); err != nil {
		return fmt.Errorf("symbols file id: %w", err)
	}
	id := binary.LittleEndian.Uint64(idb[:])
	name := fmt.Sprintf("%s%016x", SymbolsPrefix, id)
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write symbols: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bw.WriteString(symbolsMagic)
	bw.Write(idb[:])
	pos := int64(SymbolsHeaderLen)
	refs := make(map[*Entry]symRef, len(files))
	var buf []byte
	for _, e := range files {
		if e.Skip != "" || e.SymbolCount() == 0 {
			continue
		}
		buf = appendBlockOf(buf[:0], e)
		bw.Write(buf)
		refs[e] = symRef{off: pos, n: int64(len(buf))}
		pos += int64(len(buf))
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("write symbols: %w", err)
	}
	rf, err := os.Open(path)
	if err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("write symbols: %w", err)
	}
	if w.wf != nil {
		w.wf.Close()
	}
	w.file = &symFile{root: rootReal, name: name, id: id, f: rf}
	w.wf, w.size, w.refs = f, pos, refs
	return nil
}

// closeWrite closes the write side.
func (w *SymWriter) closeWrite() {
	if w.wf != nil {
		w.wf.Close()
		w.wf = nil
	}
}

// Close closes the file, both sides: entries that still read their
// symbols from it compute them again if asked for.
func (w *SymWriter) Close() {
	w.closeWrite()
	if w.file != nil {
		w.file.close()
	}
}

// appendBlockOf appends e's symbols block: the bytes its symbols file
// holds when they can be trusted (not decoded and encoded again), else
// its symbols encoded.
func appendBlockOf(buf []byte, e *Entry) []byte {
	if l := e.lazy; l != nil {
		if b, ok, _ := l.file.block(l.ref.off, l.ref.n); ok {
			return append(buf, b...)
		}
	}
	return appendSymbolsBlock(buf, e.Symbols())
}

// removeOtherSymbolFiles removes the symbols files of dir other than
// keep (left by a rewrite, or by a crash before its manifest was saved).
func removeOtherSymbolFiles(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, SymbolsPrefix) && n != keep {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// appendSymbolsBlock appends the block of syms: their count, each
// symbol's fields, then a CRC-32C of them.
func appendSymbolsBlock(buf []byte, syms []chunk.Symbol) []byte {
	start := len(buf)
	e := &encoder{b: buf}
	e.uint(uint64(len(syms)))
	for _, s := range syms {
		e.str(s.Name)
		e.str(s.Container)
		e.str(s.Kind)
		e.int(int64(s.Line))
		e.int(int64(s.EndLine))
		e.str(s.Signature)
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b[start:], castagnoli))
}
