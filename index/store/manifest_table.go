package store

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sort"
	"strings"
	"unsafe"
)

// The manifest's layout (ASKLSMF3), after its magic:
//
//   - a header: the version, the root, the symbols file's name, id and
//     used length, the number of entries, the distinct languages and skip
//     reasons (the strings table), and the lengths of the paths and of
//     the chunk blocks;
//   - the entries' table: one record of entryRecordBytes per file, sorted
//     by path, each with fixed-width fields (entryRecord);
//   - the paths, one after the other (a record holds where its path ends);
//   - the chunk blocks (encodeChunks), one after the other (a record holds
//     where its block ends);
//   - the checksum.
//
// A warm start reads the header, the table and the paths (the kernel's
// 78,000 files: 6.6 MB of the 130 MB) with no variable-length number to
// decode, and copies the paths onto the heap in one piece; the chunk
// blocks stay in the mapping until a file's chunks are asked for
// (lazyChunks). Before, each entry's fields were varints beside its chunk
// block: decoding them walked the whole file.

// The fields of an entry's record, by offset.
const (
	recPathEnd       = 0  // uint32: where its path ends in the paths
	recSize          = 4  // int64
	recMTime         = 12 // int64
	recHash          = 20 // [32]byte
	recLang          = 52 // uint16: its language in the strings table
	recSkip          = 54 // uint16: its skip reason in the strings table
	recFlags         = 56 // byte: flagTest, flagGenerated
	recChunks        = 57 // uint32: its chunk count
	recChunksEnd     = 61 // uint64: where its chunk block ends in the blocks
	recSyms          = 69 // uint32: its symbol count; 0: none in the symbols file
	recSymOff        = 73 // uint64: its symbols' block in the symbols file
	recSymLen        = 81 // uint32
	entryRecordBytes = 85
)

const (
	flagTest = 1 << iota
	flagGenerated
)

// maxTableStrings bounds the strings table: its indexes are 16 bits.
const maxTableStrings = 1 << 16

// EncodeManifest writes m in the manifest's layout. It panics if m has
// more distinct languages and skip reasons than the table can number
// (65,536; askls knows a few dozen).
func EncodeManifest(m *Manifest) []byte {
	rels := make([]string, 0, len(m.Files))
	strs, strIndex := []string{""}, map[string]uint16{"": 0}
	str := func(s string) uint16 {
		i, ok := strIndex[s]
		if !ok {
			if len(strs) == maxTableStrings {
				panic("store: a manifest with more than 65,536 languages and skip reasons")
			}
			i = uint16(len(strs))
			strIndex[s] = i
			strs = append(strs, s)
		}
		return i
	}
	pathsLen := 0
	for rel, f := range m.Files {
		rels = append(rels, rel)
		str(f.Lang)
		str(f.Skip)
		pathsLen += len(rel)
	}
	sort.Strings(rels)
	blocks := make([]string, len(rels))
	blocksLen := 0
	for i, rel := range rels {
		blocks[i] = m.Files[rel].chunkBlock()
		blocksLen += len(blocks[i])
	}
	e := &encoder{b: make([]byte, 0, 256+len(rels)*entryRecordBytes+pathsLen+blocksLen)}
	e.b = append(e.b, manifestMagic...)
	e.uint(uint64(m.Version))
	e.str(m.Root)
	e.str(m.syms.name)
	e.b = binary.LittleEndian.AppendUint64(e.b, m.syms.id)
	e.uint(uint64(m.syms.used))
	e.uint(uint64(len(rels)))
	e.uint(uint64(len(strs)))
	for _, s := range strs {
		e.str(s)
	}
	e.uint(uint64(pathsLen))
	e.uint(uint64(blocksLen))
	pathEnd, blockEnd := 0, 0
	for i, rel := range rels {
		pathEnd += len(rel)
		blockEnd += len(blocks[i])
		e.b = appendEntryRecord(e.b, m, rel, str, pathEnd, blockEnd)
	}
	for _, rel := range rels {
		e.b = append(e.b, rel...)
	}
	for _, b := range blocks {
		e.b = append(e.b, b...)
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
}

// chunkBlock is the entry's chunks as a manifest holds them.
func (e *Entry) chunkBlock() string {
	if e.lazyChunks != nil {
		return e.lazyChunks.raw
	}
	return string(encodeChunks(e.freshMetas(), e.freshHashes()))
}

// chunkCountSaved is the chunk count a manifest records for the entry:
// that of its block.
func (e *Entry) chunkCountSaved() int {
	if e.lazyChunks != nil {
		return e.lazyChunks.n
	}
	return len(e.freshMetas())
}

// appendEntryRecord appends the record of m's entry rel, whose path and
// chunk block end at pathEnd and blockEnd.
func appendEntryRecord(b []byte, m *Manifest, rel string, str func(string) uint16, pathEnd, blockEnd int) []byte {
	f := m.Files[rel]
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(pathEnd))
	b = le.AppendUint64(b, uint64(f.Size))
	b = le.AppendUint64(b, uint64(f.MTime))
	b = append(b, f.Hash[:]...)
	b = le.AppendUint16(b, str(f.Lang))
	b = le.AppendUint16(b, str(f.Skip))
	var flags byte
	if f.Test {
		flags |= flagTest
	}
	if f.Generated {
		flags |= flagGenerated
	}
	b = append(b, flags)
	b = le.AppendUint32(b, uint32(f.chunkCountSaved()))
	b = le.AppendUint64(b, uint64(blockEnd))
	// Symbols: their count and where the symbols file holds them (none
	// when it does not).
	if ref, ok := m.syms.refs[rel]; ok {
		b = le.AppendUint32(b, uint32(f.SymbolCount()))
		b = le.AppendUint64(b, uint64(ref.off))
		return le.AppendUint32(b, uint32(ref.n))
	}
	b = le.AppendUint32(b, 0)
	b = le.AppendUint64(b, 0)
	return le.AppendUint32(b, 0)
}

// DecodeManifest decodes a manifest held on the heap: its strings are
// cut from data, which the caller hands over and never changes.
func DecodeManifest(data []byte) (*Manifest, error) { return decodeManifest(data, nil, false) }

// manifestParts are a manifest's sections, cut from its data.
type manifestParts struct {
	n      int
	strs   []string
	table  []byte
	paths  string
	blocks string
}

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
	m.symFile = &symFile{name: m.syms.name, id: m.syms.id, root: m.Root}
	parts, err := manifestSections(d)
	if err != nil {
		return nil, err
	}
	if src != nil && checked {
		// The header, the table and the paths are read through next
		// (unchecked, the file was mapped whole at once).
		populatePages(data[:len(data)-len(parts.blocks)])
	}
	if src != nil {
		// Copied onto the heap, each distinct string once: the paths in
		// one piece (the kernel's 3 MB).
		for i, s := range parts.strs {
			parts.strs[i] = strings.Clone(s)
		}
		parts.paths = heapCopy(parts.paths)
	}
	if err := m.decodeEntries(parts, src); err != nil {
		return nil, err
	}
	return m, nil
}

// manifestSections reads the rest of the header from d and cuts the
// sections that follow it; they must fill the rest of the file.
func manifestSections(d *decoder) (manifestParts, error) {
	var p manifestParts
	n, ns := d.uint(), d.uint()
	if d.err != nil || ns > maxTableStrings || ns > uint64(len(d.b)-d.i) {
		return p, errManifestCorrupt
	}
	p.strs = make([]string, ns)
	for i := range p.strs {
		p.strs[i] = d.str()
	}
	pathsLen, blocksLen := d.uint(), d.uint()
	left := uint64(len(d.b) - d.i)
	if d.err != nil || n > left/entryRecordBytes || pathsLen > left || blocksLen > left ||
		n*entryRecordBytes+pathsLen+blocksLen != left {
		return p, fmt.Errorf("%w: its sections do not fill it", errManifestCorrupt)
	}
	p.n = int(n)
	end := d.i + p.n*entryRecordBytes
	p.table = d.b[d.i:end]
	p.paths = d.s[end : end+int(pathsLen)]
	p.blocks = d.s[end+int(pathsLen):]
	return p, nil
}

// heapCopy copies s into one new allocation, backed by huge pages where
// it can be (adviseHugePages).
func heapCopy(s string) string {
	if s == "" {
		return ""
	}
	b := make([]byte, len(s))
	adviseHugePages(b)
	copy(b, s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// loadedEntry is an entry decoded from a manifest with its lazy parts.
type loadedEntry struct {
	e      Entry
	chunks lazyChunks
	syms   lazySymbols
}

// decodeEntries makes m's file map from the table of parts, whose
// records are checked against the sections they point into. The chunks
// of the indexed entries are counted as they come (m.chunks).
func (m *Manifest) decodeEntries(p manifestParts, src *mappedManifest) error {
	// The entries and their lazy parts are allocated together: one
	// allocation instead of three per file (the kernel's 78,000: 19 MB),
	// backed by huge pages where it can be.
	loaded := make([]loadedEntry, p.n)
	adviseHugePages(loaded)
	m.Files = make(map[string]*Entry, p.n)
	le := binary.LittleEndian
	pathStart, blockStart, prevStart := 0, 0, 0
	for k := range p.n {
		r := p.table[k*entryRecordBytes : (k+1)*entryRecordBytes]
		pathEnd, blockEnd := int(le.Uint32(r[recPathEnd:])), le.Uint64(r[recChunksEnd:])
		lang, skip := int(le.Uint16(r[recLang:])), int(le.Uint16(r[recSkip:]))
		if pathEnd < pathStart || pathEnd > len(p.paths) || blockEnd < uint64(blockStart) || blockEnd > uint64(len(p.blocks)) ||
			lang >= len(p.strs) || skip >= len(p.strs) {
			return errManifestCorrupt
		}
		rel, raw := p.paths[pathStart:pathEnd], p.blocks[blockStart:blockEnd]
		if k > 0 && rel <= p.paths[prevStart:pathStart] {
			return fmt.Errorf("%w: its paths are not sorted", errManifestCorrupt)
		}
		prevStart = pathStart
		pathStart, blockStart = pathEnd, int(blockEnd)
		l := &loaded[k]
		f := &l.e
		f.Size, f.MTime = int64(le.Uint64(r[recSize:])), int64(le.Uint64(r[recMTime:]))
		copy(f.Hash[:], r[recHash:recHash+32])
		f.Lang, f.Skip = p.strs[lang], p.strs[skip]
		f.Test, f.Generated = r[recFlags]&flagTest != 0, r[recFlags]&flagGenerated != 0
		if nc := int(le.Uint32(r[recChunks:])); nc > 0 {
			if nc > len(raw)/14 {
				return errManifestCorrupt // a chunk takes at least 14 bytes
			}
			f.lazyChunks = &l.chunks
			f.lazyChunks.raw, f.lazyChunks.n, f.lazyChunks.size, f.lazyChunks.src = raw, nc, f.Size, src
			m.blocks++
			if f.Skip == "" {
				m.chunks += uint64(nc)
			}
		}
		if ns := le.Uint32(r[recSyms:]); ns > 0 {
			ref := symRef{off: int64(le.Uint64(r[recSymOff:])), n: int64(le.Uint32(r[recSymLen:]))}
			if ref.off < int64(SymbolsHeaderLen) || ref.n < 5 || ref.off > m.syms.used-ref.n || int64(ns) > ref.n {
				return errManifestCorrupt
			}
			f.lazy = &l.syms
			f.lazy.file, f.lazy.ref, f.lazy.n, f.lazy.rel, f.lazy.e = m.symFile, ref, int(ns), rel, f
		}
		m.Files[rel] = f
	}
	return nil
}
