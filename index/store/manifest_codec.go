package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/askls/askls/index/chunk"
)

// The manifest is written in a small binary format rather than gob:
// decoding gob's 228,000 symbols of the Go tree took 0.56 s of a 0.67 s warm
// start. Its layout is in manifest_table.go.

// manifestMagic starts the file; a CRC-32C of everything before them
// ends it (4 bytes, little-endian), so that a torn write or a flipped
// byte anywhere is detected before the entries are trusted. ASKLSMF2
// was the layout with each file's chunk block beside its entry.
const manifestMagic = "ASKLSMF3"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

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
