package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"unsafe"
)

// A root's symbol table is kept in its cache folder (SymtabFile), so that
// a process's first lookup reads it instead of building it from every
// file's symbols (GOROOT: 0.8 s of CPU and 60 MB of heap kept, 80 MB
// allocated; the Linux tree: about 6 s and a 1.3 GB peak).
//
// The file is a header (symtabMagic, the format's version, the manifest
// version whose chunking made the symbols), sections, and a CRC-32C of
// everything before it. Each section is its length in bytes (4 bytes)
// and its bytes, padded to 4, in this order: the files' blake3 hashes
// (32 bytes each), where each file's path starts in the paths (int32s,
// the end last), the paths relative to the root (sorted), where each name
// starts in the names (int32s), the first record of each name (int32s),
// the names (lower case, each after a 0 byte, one ending them), the
// records (symRec, 28 bytes each), where each string starts (int32s), the
// strings (names in their own case, containers), where each kind starts,
// the kinds. Numbers are little-endian; the int32 sections and the
// records are used where they lie in the file, mapped read-only (or, where
// it cannot be mapped, read into one allocation that holds no pointers),
// not decoded.
//
// The table describes the files it was built from, by their hashes, not
// a generation: it is written whenever a base is built (after a first
// build, after more than MaxOver files changed, or when the file could
// not be used), on the goroutine that built it, and read when a base is
// first needed. A file whose hash differs from its entry's, or that the
// table lacks, is searched in its entry until the table is written
// again; past staleMax such files the table is built again instead of
// read. A missing, damaged or older table file is built again, with a
// log line saying why; a crash while it is written leaves SymtabFile.tmp,
// never a torn SymtabFile (rename).

// SymtabFile is the symbol table's file in a root's cache folder.
const SymtabFile = "symtab"

const (
	symtabMagic   = "ASKLSST1"
	symtabVersion = 1
	symRecSize    = 28
	symtabHeadLen = len(symtabMagic) + 8
	symtabParts   = 11 // sections
)

// staleMax is how many files may differ from a table file read: past it
// the table is built (and written) again.
const staleMax = MaxOver / 2

// The records are written and read as they lie in memory.
var _ [symRecSize]byte = [unsafe.Sizeof(symRec{})]byte{}

// littleEndian: the files are written and read only where the records
// lie in memory as the file holds them.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// readFile makes b the table its file holds, when the file can be used
// for b's files; otherwise it says why (logged) and returns false.
//
// The file is mapped read-only where the platform allows (mapFile), so
// that what lookups do not touch stays out of the process's memory: the
// checks read every page, then the pages are let go (dropPages) and
// a lookup maps back the few it reads. The mapping lives as long as b (a
// cleanup unmaps it). askls never changes a table file in place (it
// writes another and renames it over), so a mapping keeps the bytes it
// checked; a file cut short by another program under a mapping raises a
// memory fault where the part gone is read, which the read and the
// lookups turn into an error (faultsAsErrors, endLookup), not a crash.
func (b *symBase) readFile() bool {
	dir := b.root.Dir
	if dir == "" || !littleEndian {
		return false
	}
	data, mapped, _, err := mapFile(filepath.Join(dir, SymtabFile), nil)
	if errors.Is(err, fs.ErrNotExist) {
		b.logf(false, "no symbol table kept yet; building it")
		return false
	}
	stale := 0
	if err == nil {
		err = faultsAsErrors(data, func() error {
			if err := b.decode(data); err != nil {
				return err
			}
			stale = b.markStale(data)
			return nil
		})
	}
	if err == nil && stale > staleMax {
		b.logf(false, "%d files changed since the symbol table was kept; building it again", stale)
	} else if err != nil {
		b.logf(true, "the symbol table kept in the cache cannot be used (%v); building it again", err)
	}
	if err != nil || stale > staleMax {
		b.reset()
		if mapped {
			unmapFile(data)
		}
		return false
	}
	b.keepDecoded = b.count < KeepDecodedBelow
	b.data, b.mapped = data, mapped
	if mapped {
		dropPages(data)
		runtime.AddCleanup(b, unmapFile, data)
	}
	if b.sh.log != nil {
		b.sh.log.Debug("index: symbol table read from the cache", "cache", dir, "symbols", b.count,
			"files", len(b.paths), "changed", len(b.stale), "mapped", mapped)
	}
	return true
}

// faultsAsErrors runs f with a memory fault in it at an address of data
// (a mapped table file cut short under it) made an error.
func faultsAsErrors(data []byte, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !faultIn(r, data) {
				panic(r)
			}
			err = fmt.Errorf("the file changed while it was read: %v", r)
		}
	}()
	return f()
}

// faultIn reports whether r, a recovered panic, is a memory fault at an
// address of data (with debug.SetPanicOnFault on, every fault, a nil
// pointer's too, panics with its address).
func faultIn(r any, data []byte) bool {
	f, ok := r.(interface{ Addr() uintptr })
	if !ok || len(data) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return f.Addr() >= start && f.Addr()-start < uintptr(len(data))
}

// logf logs a line about the table file of b's root: a warning when
// warn, else at info level.
func (b *symBase) logf(warn bool, format string, args ...any) {
	if b.sh.log == nil {
		return
	}
	msg := "index: " + fmt.Sprintf(format, args...)
	if warn {
		b.sh.log.Warn(msg, "cache", b.root.Dir)
	} else {
		b.sh.log.Info(msg, "cache", b.root.Dir)
	}
}

// reset forgets what a failed read set.
func (b *symBase) reset() {
	b.blob, b.offs, b.first, b.recs, b.count = "", nil, nil, nil, 0
	b.paths, b.entries, b.strBlob, b.strOffs, b.kinds = nil, nil, "", nil, nil
	b.stale, b.data, b.mapped = nil, nil, false
}

// symtabReader cuts the sections of a table file.
type symtabReader struct {
	data []byte
	i    int
	err  error
}

var errSymtabCorrupt = errors.New("its sections do not fit")

// section is the next section's bytes.
func (r *symtabReader) section() []byte {
	if r.err != nil || r.i+4 > len(r.data) {
		r.err = errSymtabCorrupt
		return nil
	}
	n := int(binary.LittleEndian.Uint32(r.data[r.i:]))
	r.i += 4
	if n < 0 || n > len(r.data)-r.i {
		r.err = errSymtabCorrupt
		return nil
	}
	s := r.data[r.i : r.i+n : r.i+n]
	r.i += (n + 3) &^ 3
	return s
}

// int32s is the next section as int32s, of which there must be n (n < 0:
// any number).
func (r *symtabReader) int32s(n int) []int32 {
	s := r.section()
	if len(s)%4 != 0 || (n >= 0 && len(s) != 4*n) {
		r.err = errSymtabCorrupt
	}
	if r.err != nil || len(s) == 0 {
		return []int32{}
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&s[0])), len(s)/4)
}

// str is the next section as a string.
func (r *symtabReader) str() string {
	s := r.section()
	return unsafe.String(unsafe.SliceData(s), len(s))
}

// decode sets b's table from data, a table file, after checking its
// header, its checksum and that every number in it points inside it.
func (b *symBase) decode(data []byte) error {
	if len(data) < symtabHeadLen+4 || string(data[:len(symtabMagic)]) != symtabMagic {
		return errors.New("not a symbol table file")
	}
	v, mv := binary.LittleEndian.Uint32(data[8:]), binary.LittleEndian.Uint32(data[12:])
	if v != symtabVersion || mv != ManifestVersion {
		return fmt.Errorf("written by another askls: version %d/%d, this askls writes %d/%d", v, mv, symtabVersion, ManifestVersion)
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(body):]) {
		return errors.New("its checksum does not match (a torn write or damage on disk)")
	}
	r := &symtabReader{data: body, i: symtabHeadLen}
	hashes := r.section()
	nf := len(hashes) / 32
	pathOffs, paths := r.int32s(nf+1), r.str()
	b.offs = r.int32s(-1)
	b.first = r.int32s(len(b.offs))
	b.blob = r.str()
	recs := r.section()
	b.strOffs, b.strBlob = r.int32s(-1), r.str()
	kindOffs, kinds := r.int32s(-1), r.str()
	if r.err == nil && (len(hashes)%32 != 0 || len(recs)%symRecSize != 0 || r.i != len(body)) {
		r.err = errSymtabCorrupt
	}
	if r.err != nil {
		return r.err
	}
	if len(recs) > 0 {
		b.recs = unsafe.Slice((*symRec)(unsafe.Pointer(&recs[0])), len(recs)/symRecSize)
	}
	b.count = len(b.recs)
	if err := b.check(pathOffs, len(paths), kindOffs, len(kinds)); err != nil {
		return err
	}
	b.paths = cutStrings(b.root.Prefix, paths, pathOffs)
	b.kinds = cutStrings("", kinds, kindOffs)
	return nil
}

// check makes sure every offset and number of a decoded table points
// inside it, so that a lookup cannot index out of range.
func (b *symBase) check(pathOffs []int32, npaths int, kindOffs []int32, nkinds int) error {
	n := len(b.offs) - 1
	switch {
	case n < 0, !ascending(pathOffs, npaths, 0), !ascending(b.strOffs, len(b.strBlob), 0), !ascending(kindOffs, nkinds, 0),
		!ascending(b.first, len(b.recs), 0), b.first[0] != 0, int(b.first[n]) != len(b.recs),
		!ascending(b.offs, len(b.blob), 1), int(b.offs[n]) != len(b.blob), n > 0 && b.offs[0] != 1:
		return errSymtabCorrupt
	}
	nfiles, nstrs, nk := int32(len(pathOffs)-1), int32(len(b.strOffs)-1), int16(len(kindOffs)-1)
	for i := range b.recs {
		r := &b.recs[i]
		if r.file < 0 || r.file >= nfiles || r.name < -1 || r.name >= nstrs || r.container < -1 || r.container >= nstrs ||
			r.kind < 0 || r.kind >= nk || r.idx < 0 {
			return errSymtabCorrupt
		}
	}
	return nil
}

// ascending reports whether offs rises from where it starts (not below
// 0) to at most end, by step at least each time.
func ascending(offs []int32, end, step int) bool {
	if len(offs) == 0 || offs[0] < 0 {
		return false
	}
	for i := 1; i < len(offs); i++ {
		if int(offs[i])-int(offs[i-1]) < step {
			return false
		}
	}
	return int(offs[len(offs)-1]) <= end
}

// cutStrings cuts all at offs, each with prefix before it.
func cutStrings(prefix, all string, offs []int32) []string {
	out := make([]string, len(offs)-1)
	for i := range out {
		out[i] = all[offs[i]:offs[i+1]]
		if prefix != "" {
			out[i] = prefix + out[i]
		}
	}
	return out
}

// markStale points each file of a read table at its entry in b.files
// when the entry's hash is the one the table was built from, and lists
// the others, and the files the table lacks, as stale. It returns how
// many there are.
func (b *symBase) markStale(data []byte) int {
	r := &symtabReader{data: data, i: symtabHeadLen}
	hashes := r.section()
	b.entries = make([]*Entry, len(b.paths))
	b.stale = map[string]bool{}
	matched := 0
	for f, p := range b.paths {
		e := b.files[p]
		if e == nil || string(e.Hash[:]) != string(hashes[32*f:32*f+32]) {
			b.stale[p] = true
			continue
		}
		b.entries[f] = e
		matched++
	}
	withSymbols := 0
	for _, e := range b.files {
		if e.SymbolCount() > 0 {
			withSymbols++
		}
	}
	if withSymbols != matched {
		for p, e := range b.files {
			if e.SymbolCount() == 0 {
				continue
			}
			if f := sort.SearchStrings(b.paths, p); f == len(b.paths) || b.paths[f] != p || b.entries[f] == nil {
				b.stale[p] = true
			}
		}
	}
	return len(b.stale)
}

// writeFile writes b, just built, to its root's cache folder, unless the
// index is closed or keeps no table.
func (b *symBase) writeFile() {
	if b.root.Dir == "" || !littleEndian {
		return
	}
	b.sh.mu.Lock()
	defer b.sh.mu.Unlock()
	if b.sh.closed {
		return
	}
	tmp := filepath.Join(b.root.Dir, SymtabFile+".tmp")
	err := b.writeTo(tmp)
	if err == nil {
		err = os.Rename(tmp, filepath.Join(b.root.Dir, SymtabFile))
	}
	if err != nil {
		os.Remove(tmp)
		b.logf(true, "cannot keep the symbol table (the next start builds it again): %v", err)
	}
}

// writeTo writes the table file of b to path.
func (b *symBase) writeTo(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := &crcWriter{w: bufio.NewWriterSize(f, 1<<20)}
	var head [symtabHeadLen]byte
	copy(head[:], symtabMagic)
	binary.LittleEndian.PutUint32(head[8:], symtabVersion)
	binary.LittleEndian.PutUint32(head[12:], ManifestVersion)
	w.Write(head[:])
	hashes := make([]byte, 0, 32*len(b.entries))
	rels := make([]string, len(b.paths))
	for i, e := range b.entries {
		hashes = append(hashes, e.Hash[:]...)
		rels[i] = strings.TrimPrefix(b.paths[i], b.root.Prefix)
	}
	relBlob, relOffs := joinStrings(rels)
	kindBlob, kindOffs := joinStrings(b.kinds)
	w.section(hashes)
	w.section(int32Bytes(relOffs))
	w.section([]byte(relBlob))
	w.section(int32Bytes(b.offs))
	w.section(int32Bytes(b.first))
	w.section(unsafe.Slice(unsafe.StringData(b.blob), len(b.blob)))
	var recs []byte
	if len(b.recs) > 0 {
		recs = unsafe.Slice((*byte)(unsafe.Pointer(&b.recs[0])), len(b.recs)*symRecSize)
	}
	w.section(recs)
	w.section(int32Bytes(b.strOffs))
	w.section(unsafe.Slice(unsafe.StringData(b.strBlob), len(b.strBlob)))
	w.section(int32Bytes(kindOffs))
	w.section([]byte(kindBlob))
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], w.crc)
	w.w.Write(sum[:])
	err = w.w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.err
	}
	return err
}

// int32Bytes is s as it lies in memory.
func int32Bytes(s []int32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 4*len(s))
}

// crcWriter writes through w, keeping a CRC-32C of what it wrote and the
// first error.
type crcWriter struct {
	w   *bufio.Writer
	crc uint32
	err error
}

func (c *crcWriter) Write(p []byte) {
	c.crc = crc32.Update(c.crc, castagnoli, p)
	if _, err := c.w.Write(p); err != nil && c.err == nil {
		c.err = err
	}
}

// section writes p as a section: its length, its bytes, padding to 4.
func (c *crcWriter) section(p []byte) {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(p)))
	c.Write(n[:])
	c.Write(p)
	var pad [3]byte
	c.Write(pad[:(4-len(p)%4)%4])
}
