package store

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/askls/askls/index/chunk"
)

// tableFixture is a manifest whose entries use every field of a record:
// flags, a language, a skip reason, chunks and symbols in a symbols file.
func tableFixture() *Manifest {
	return &Manifest{Version: ManifestVersion, Root: "/r",
		syms: symbolsSaved{name: "symbols-00000000000000aa", id: 0xaa, used: 4096,
			refs: map[string]symRef{"a.go": {off: int64(SymbolsHeaderLen), n: 60}}},
		Files: map[string]*Entry{
			"a.go": {Size: 40, MTime: 7, Hash: [32]byte{1, 2, 3}, Lang: "go", Test: true, fresh: &freshParts{
				metas:  []chunk.Meta{{Start: 1, End: 3, Symbol: "A", Kind: "func", Off: 0, Len: 40}},
				hashes: []uint64{9},
				syms:   []chunk.Symbol{{Name: "A", Kind: "func", Line: 1, EndLine: 3}, {Name: "B", Kind: "var", Line: 2, EndLine: 2}}}},
			"b.bin": {Size: 3, MTime: -5, Skip: "binary"},
			"gen/z_gen.c": {Size: 100, MTime: 1 << 62, Lang: "c", Generated: true, fresh: &freshParts{
				metas: []chunk.Meta{{Start: 1, End: 2, Off: 0, Len: 10}, {Start: 3, End: 4, Off: 10, Len: 90}}, hashes: []uint64{4, 5}}},
		}}
}

// TestManifestTableRoundTrip: every field of an entry's record comes back
// from the manifest, on the heap and mapped; the decode counts the chunks
// of the indexed entries (bleve's document count is checked against it)
// and the entries whose chunk blocks lie in the data.
func TestManifestTableRoundTrip(t *testing.T) {
	want := tableFixture()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), EncodeManifest(want), 0o644); err != nil {
		t.Fatal(err)
	}
	heap, err := DecodeManifest(EncodeManifest(want))
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := LoadManifest(dir, "/r")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*Manifest{"heap": heap, "mapped": mapped} {
		if len(m.Files) != len(want.Files) || m.chunks != 3 || m.blocks != 2 {
			t.Errorf("%s: %d files, %d chunks, %d blocks; want 3, 3, 2", name, len(m.Files), m.chunks, m.blocks)
		}
		if m.syms.name != want.syms.name || m.syms.id != want.syms.id || m.syms.used != want.syms.used {
			t.Errorf("%s: symbols file %+v, want %+v", name, m.syms, want.syms)
		}
		for rel, w := range want.Files {
			g := m.Files[rel]
			if g == nil {
				t.Errorf("%s: %s missing", name, rel)
				continue
			}
			if g.Size != w.Size || g.MTime != w.MTime || g.Hash != w.Hash || g.Lang != w.Lang || g.Skip != w.Skip ||
				g.Test != w.Test || g.Generated != w.Generated || g.ChunkCount() != w.ChunkCount() {
				t.Errorf("%s: %s = %+v, want %+v", name, rel, *g, *w)
			}
			if !reflect.DeepEqual(g.Chunks(), w.Chunks()) || !reflect.DeepEqual(g.DocHashes(), w.DocHashes()) {
				t.Errorf("%s: %s's chunks %+v %v, want %+v %v", name, rel, g.Chunks(), g.DocHashes(), w.Chunks(), w.DocHashes())
			}
		}
		a := m.Files["a.go"]
		if a.lazy == nil || a.lazy.ref != want.syms.refs["a.go"] || a.SymbolCount() != 2 || m.Files["b.bin"].lazy != nil {
			t.Errorf("%s: a.go's symbols %+v, want 2 at %+v; b.bin's %+v, want none", name, a.lazy, want.syms.refs["a.go"], m.Files["b.bin"].lazy)
		}
	}
}

// TestManifestTableDamageIsAnError: a record that points outside its
// sections, out of the strings table, or out of order, and sections that
// do not fill the file, are errors (their checksum made right, so that
// the decoder's own checks are what is exercised), never a panic.
func TestManifestTableDamageIsAnError(t *testing.T) {
	good := EncodeManifest(tableFixture())
	body := good[:len(good)-4]
	table := len(body) - tableBytes(t) - 3*entryRecordBytes // the records of a.go, b.bin, gen/z_gen.c
	le := binary.LittleEndian
	cases := map[string]func(b []byte) []byte{
		"a path past the paths":       func(b []byte) []byte { le.PutUint32(b[table+recPathEnd:], 1<<20); return b },
		"a chunk block past the rest": func(b []byte) []byte { le.PutUint64(b[table+recChunksEnd:], 1<<40); return b },
		"a chunk block going back": func(b []byte) []byte {
			le.PutUint64(b[table+2*entryRecordBytes+recChunksEnd:], 0)
			return b
		},
		"a language out of the table": func(b []byte) []byte { le.PutUint16(b[table+recLang:], 9); return b },
		"paths out of order": func(b []byte) []byte {
			paths := table + 3*entryRecordBytes
			b[paths], b[paths+len("a.go")] = 'z', 'a' // "z.go", "a.bin": not sorted
			return b
		},
		"more chunks than the block holds": func(b []byte) []byte { le.PutUint32(b[table+recChunks:], 1000); return b },
		"symbols past the symbols file":    func(b []byte) []byte { le.PutUint64(b[table+recSymOff:], 4090); return b },
		"a byte more":                      func(b []byte) []byte { return append(b, 0) },
		"a byte less":                      func(b []byte) []byte { return b[:len(b)-1] },
	}
	for name, damage := range cases {
		data := damage(append([]byte(nil), body...))
		data = le.AppendUint32(data, crc32.Checksum(data, castagnoli))
		if _, err := DecodeManifest(data); !errors.Is(err, errManifestCorrupt) {
			t.Errorf("%s: %v, want the manifest corrupt", name, err)
		}
	}
}

// tableBytes is the length of the paths and chunk blocks of
// tableFixture, which follow its table.
func tableBytes(t *testing.T) int {
	t.Helper()
	m := tableFixture()
	n := 0
	for rel, e := range m.Files {
		n += len(rel) + len(e.chunkBlock())
	}
	return n
}
