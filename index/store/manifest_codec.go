package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/askls/askls/index/chunk"
)

// The manifest is written in a small binary format rather than gob:
// decoding gob's 228,000 symbols of the Go tree took 0.56 s of a 0.67 s warm
// start. Strings are length-prefixed and, when read, cut from one string
// holding the whole file, so decoding allocates little.

// manifestMagic starts the file; a CRC-32C of everything before them
// ends it (4 bytes, little-endian), so that a torn write or a flipped
// byte anywhere is detected before the entries are trusted.
const manifestMagic = "ASKLSMF2"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

type decoder struct {
	b   []byte // the whole file, for numbers
	s   string // the same, for strings cut without copying
	i   int
	err error
}

var errManifestCorrupt = errors.New("manifest is corrupt")

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.i:])
	if n <= 0 {
		d.err = errManifestCorrupt
		return 0
	}
	d.i += n
	return v
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.i:])
	if n <= 0 {
		d.err = errManifestCorrupt
		return 0
	}
	d.i += n
	return v
}

func (d *decoder) str() string {
	n := int(d.uint())
	if d.err != nil || n < 0 || n > len(d.s)-d.i { // not d.i+n: a huge n wraps around
		d.err = errManifestCorrupt
		return ""
	}
	s := d.s[d.i : d.i+n]
	d.i += n
	return s
}

func (d *decoder) bool() bool {
	if d.err != nil || d.i >= len(d.s) {
		d.err = errManifestCorrupt
		return false
	}
	v := d.s[d.i] == 1
	d.i++
	return v
}

func EncodeManifest(m *Manifest) []byte {
	e := &encoder{b: make([]byte, 0, 1<<20)}
	e.b = append(e.b, manifestMagic...)
	e.uint(uint64(m.Version))
	e.str(m.Root)
	e.str(m.syms.name)
	e.b = binary.LittleEndian.AppendUint64(e.b, m.syms.id)
	e.uint(uint64(m.syms.used))
	rels := make([]string, 0, len(m.Files))
	for rel := range m.Files {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	e.uint(uint64(len(rels)))
	for _, rel := range rels {
		f := m.Files[rel]
		e.str(rel)
		e.int(f.Size)
		e.int(f.MTime)
		e.b = append(e.b, f.Hash[:]...)
		e.str(f.Lang)
		e.bool(f.Test)
		e.bool(f.Generated)
		e.str(f.Skip)
		// Chunks are one length-prefixed block, so that loading can keep
		// it encoded until they are asked for (lazyChunks).
		if f.lazyChunks != nil {
			e.uint(uint64(f.lazyChunks.n))
			e.str(f.lazyChunks.raw)
		} else {
			e.uint(uint64(len(f.freshMetas())))
			e.str(string(encodeChunks(f.freshMetas(), f.freshHashes())))
		}
		// Symbols: their count and where the symbols file holds them
		// (none when it does not).
		if ref, ok := m.syms.refs[rel]; ok {
			e.uint(uint64(f.SymbolCount()))
			e.uint(uint64(ref.off))
			e.uint(uint64(ref.n))
		} else {
			e.uint(0)
		}
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
}

// DecodeManifest decodes a manifest held on the heap: its strings are
// cut from data, which the caller hands over and never changes.
func DecodeManifest(data []byte) (*Manifest, error) { return decodeManifest(data, nil, false) }

// decodeManifest decodes data; src, when set, is data mapped from the
// file (LoadManifest): the entries' strings are then copied onto the heap
// and only their chunk blocks stay in the mapping, which they keep alive.
// checked: data is a file whose checksum matched when it was last read
// (manifestChecked), and it is not computed again.
func decodeManifest(data []byte, src *mappedManifest, checked bool) (*Manifest, error) {
	data, err := manifestBody(data, checked)
	if err != nil {
		return nil, err
	}
	// The strings are cut from data itself: the caller hands it over and
	// never changes it (a copy of the 18 MB of the Go tree's manifest cost
	// 65 ms of the warm start).
	d := &decoder{b: data, s: unsafe.String(unsafe.SliceData(data), len(data)), i: len(manifestMagic)}
	str := d.str
	if src != nil {
		str = internedStrings(d)
	}
	m := &Manifest{Version: int(d.uint()), Root: strings.Clone(d.str())}
	if d.err == nil && m.Version != ManifestVersion {
		return m, nil // the caller reports the version
	}
	m.syms.name = strings.Clone(d.str())
	if d.err != nil || d.i+8 > len(d.b) {
		return nil, errManifestCorrupt
	}
	m.syms.id = binary.LittleEndian.Uint64(d.b[d.i:])
	d.i += 8
	m.syms.used = int64(d.uint())
	sf := &symFile{name: m.syms.name, id: m.syms.id, root: m.Root}
	m.symFile = sf
	// Counts are checked against the bytes left (an entry takes at least
	// 40, a chunk 14, a part 4), so that a damaged count cannot make the
	// decoder allocate more than the file could hold.
	n := int(d.uint())
	if n < 0 || n > (len(data)-d.i)/40 {
		return nil, errManifestCorrupt
	}
	m.Files = make(map[string]*Entry, n)
	// The entries and their lazy parts are allocated together, and the
	// paths of a mapped manifest copied into a few large blocks: three
	// allocations instead of four per file (the kernel's 78,000).
	entries, chunks, syms := make([]Entry, n), make([]lazyChunks, n), make([]lazySymbols, n)
	var paths stringArena
	for k := 0; k < n && d.err == nil; k++ {
		rel := d.str()
		if src != nil {
			rel = paths.clone(rel)
		}
		f := &entries[k]
		f.Size, f.MTime = d.int(), d.int()
		if d.i+32 > len(d.s) {
			return nil, errManifestCorrupt
		}
		copy(f.Hash[:], d.s[d.i:d.i+32])
		d.i += 32
		f.Lang, f.Test, f.Generated, f.Skip = str(), d.bool(), d.bool(), str()
		nc := int(d.uint())
		raw := d.str()
		if nc < 0 || nc > len(raw)/14 {
			return nil, errManifestCorrupt // a chunk takes at least 14 bytes
		}
		if nc > 0 {
			f.lazyChunks = &chunks[k]
			f.lazyChunks.raw, f.lazyChunks.n, f.lazyChunks.size, f.lazyChunks.src = raw, nc, f.Size, src
		}
		if ns := d.uint(); ns > 0 {
			ref := symRef{off: int64(d.uint()), n: int64(d.uint())}
			if ref.off < int64(SymbolsHeaderLen) || ref.n < 5 || ref.off+ref.n > m.syms.used || ns > uint64(ref.n) {
				return nil, errManifestCorrupt
			}
			f.lazy = &syms[k]
			f.lazy.file, f.lazy.ref, f.lazy.n, f.lazy.rel, f.lazy.e = sf, ref, int(ns), rel, f
		}
		m.Files[rel] = f
	}
	if d.err != nil {
		return nil, d.err
	}
	if d.i != len(data) {
		return nil, fmt.Errorf("%w: %d bytes after the last entry", errManifestCorrupt, len(data)-d.i)
	}
	return m, nil
}

// manifestBody is data without its checksum, once its magic and (unless
// checked) its checksum hold.
func manifestBody(data []byte, checked bool) ([]byte, error) {
	if len(data) < len(manifestMagic)+4 || string(data[:len(manifestMagic)]) != manifestMagic {
		return nil, fmt.Errorf("not an askls manifest (or written by an older askls)")
	}
	sum := binary.LittleEndian.Uint32(data[len(data)-4:])
	data = data[:len(data)-4]
	if !checked && crc32.Checksum(data, castagnoli) != sum {
		return nil, fmt.Errorf("%w: its checksum does not match (a torn write or damage on disk)", errManifestCorrupt)
	}
	return data, nil
}

// lazyChunks are a file's chunks and their documents' hashes as the
// manifest holds them, decoded at first use: a warm start decodes none of
// the kernel tree's 950,000 chunks; a search decodes those of the files it
// shows. The manifest's checksum covers the block; a chunk that does not
// fit its file (a bug, not damage) ends the list there.
type lazyChunks struct {
	raw  string          // the chunks (encodeChunks)
	src  *mappedManifest // the mapped manifest raw lies in, or nil (the heap)
	n    int             // the count
	size int64           // the file's size, which every chunk must fit
	// dec is the chunks once get decoded them: a pointer, so that the
	// 78,000 of a kernel's warm start stay small (memory touched for the
	// first time costs more than decoding it on some machines).
	dec atomic.Pointer[decodedChunks]
}

type decodedChunks struct {
	chunks []chunk.Meta
	hashes []uint64
}

// get decodes the chunks and keeps them. Two first calls at once may
// both decode; one result is kept.
func (l *lazyChunks) get() *decodedChunks {
	if d := l.dec.Load(); d != nil {
		return d
	}
	d := l.decode()
	if l.dec.CompareAndSwap(nil, d) {
		return d
	}
	return l.dec.Load()
}

func (l *lazyChunks) decode() *decodedChunks {
	if l.src == nil {
		d := decodeChunks(l.raw, l.n, l.size, false)
		return &d
	}
	// Mapped: the strings are copied out, and a fault (the file cut
	// short by another program) gives no chunks, never a crash.
	var d decodedChunks
	err := faultsAsErrors(l.src.data, func() error {
		d = decodeChunks(l.raw, l.n, l.size, true)
		return nil
	})
	if err != nil {
		return &decodedChunks{}
	}
	return &d
}

// encodeChunks writes each chunk with its document's hash (0 when
// hashes has none for it).
func encodeChunks(chunks []chunk.Meta, hashes []uint64) []byte {
	if len(chunks) == 0 {
		return nil
	}
	e := &encoder{}
	for i, c := range chunks {
		var h uint64
		if i < len(hashes) {
			h = hashes[i]
		}
		e.b = binary.LittleEndian.AppendUint64(e.b, h)
		e.int(int64(c.Start))
		e.int(int64(c.End))
		e.str(c.Symbol)
		e.str(c.Kind)
		e.int(int64(c.Off))
		e.int(int64(c.Len))
		e.uint(uint64(len(c.Parts)))
		for _, p := range c.Parts {
			e.int(int64(p.Start))
			e.int(int64(p.End))
			e.str(p.Symbol)
			e.str(p.Kind)
		}
	}
	return e.b
}

// decodeChunks decodes the n chunks encodeChunks wrote for a file of size
// bytes; damage, or a chunk that does not fit the file, ends the list.
// With clone, the strings are copied (raw lies in a mapping), the kinds
// kept once each.
func decodeChunks(raw string, n int, size int64, clone bool) decodedChunks {
	d := &decoder{b: unsafe.Slice(unsafe.StringData(raw), len(raw)), s: raw}
	str := d.str
	if clone {
		str = internedStrings(d)
	}
	out := decodedChunks{chunks: make([]chunk.Meta, 0, n), hashes: make([]uint64, 0, n)}
	for i := 0; i < n; i++ {
		if d.i+8 > len(d.b) {
			break
		}
		h := binary.LittleEndian.Uint64(d.b[d.i:])
		d.i += 8
		var c chunk.Meta
		c.Start, c.End = int(d.int()), int(d.int())
		c.Symbol, c.Kind = d.str(), str()
		if clone {
			c.Symbol = strings.Clone(c.Symbol)
		}
		c.Off, c.Len = int(d.int()), int(d.int())
		np := int(d.uint())
		if d.err != nil || c.Off < 0 || c.Len < 0 || int64(c.Off)+int64(c.Len) > size || np < 0 || np > (len(raw)-d.i)/4 {
			break
		}
		for j := 0; j < np && d.err == nil; j++ {
			p := chunk.Part{Start: int(d.int()), End: int(d.int()), Symbol: d.str(), Kind: str()}
			if clone {
				p.Symbol = strings.Clone(p.Symbol)
			}
			c.Parts = append(c.Parts, p)
		}
		if d.err != nil {
			break
		}
		out.chunks = append(out.chunks, c)
		out.hashes = append(out.hashes, h)
	}
	return out
}

// decodeSymbols decodes what appendSymbolsBlock wrote (its checksum
// left out); a corrupt block gives the symbols before the damage.
func decodeSymbols(raw, path, lang string) []chunk.Symbol {
	d := &decoder{b: unsafe.Slice(unsafe.StringData(raw), len(raw)), s: raw}
	n := int(d.uint())
	if d.err != nil || n < 0 || n > len(raw) {
		return nil
	}
	syms := make([]chunk.Symbol, n)
	for i := range syms {
		s := &syms[i]
		s.Name, s.Container, s.Kind = d.str(), d.str(), d.str()
		s.Line, s.EndLine = int(d.int()), int(d.int())
		s.Signature = d.str()
		s.Path, s.Language = path, lang
		if d.err != nil {
			return syms[:i]
		}
	}
	return syms
}

// internedStrings reads strings from d as copies, each distinct value
// copied once: the few languages, skip reasons and chunk kinds of a
// mapped manifest.
func internedStrings(d *decoder) func() string {
	seen := map[string]string{}
	return func() string {
		s := d.str()
		if v, ok := seen[s]; ok {
			return v
		}
		v := strings.Clone(s)
		seen[v] = v
		return v
	}
}

// stringArena copies strings into blocks of 64 KiB: one allocation per
// block, not per string. A block lives as long as a string cut from it.
type stringArena struct{ buf []byte }

func (a *stringArena) clone(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > cap(a.buf)-len(a.buf) {
		a.buf = make([]byte, 0, max(64<<10, len(s)))
	}
	start := len(a.buf)
	a.buf = append(a.buf, s...)
	return unsafe.String(&a.buf[start], len(s))
}
