package store

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/askls/askls/index/chunk"
)

// FuzzManifestDecode: any bytes decode to an error or to entries whose
// chunks fit their files, without a panic; what is encoded decodes back.
func FuzzManifestDecode(f *testing.F) {
	m := &Manifest{Version: ManifestVersion, Root: "/r", Files: map[string]*Entry{
		"a.go": {Size: 40, MTime: 7, Lang: "go", fresh: &freshParts{metas: []chunk.Meta{{Start: 1, End: 3, Symbol: "A", Kind: "func", Off: 0, Len: 40,
			Parts: []chunk.Part{{Start: 1, End: 2, Symbol: "B", Kind: "var"}}}}, hashes: []uint64{9},
			syms: []chunk.Symbol{{Name: "A", Kind: "func", Line: 1, EndLine: 3}}}},
		"b.bin": {Size: 3, Skip: "binary"},
	}}
	good := EncodeManifest(m)
	f.Add(good)
	f.Add(good[:len(good)-4])
	f.Add(good[:len(good)/2])
	f.Add([]byte(manifestMagic))
	f.Add([]byte("ASKLSMF1garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := DecodeManifest(append([]byte(nil), data...)); err == nil && len(data) < len(manifestMagic)+4 {
			t.Fatalf("%q decoded", data)
		}
		// With its checksum made right, so that the decoder's own checks
		// are what is exercised.
		fixed := binary.LittleEndian.AppendUint32(append([]byte(nil), data...), crc32.Checksum(data, castagnoli))
		m, err := DecodeManifest(fixed)
		if err != nil {
			return
		}
		for rel, e := range m.Files {
			for _, c := range e.Chunks() {
				if c.Off < 0 || c.Len < 0 || int64(c.Off+c.Len) > e.Size {
					t.Fatalf("%s: chunk %+v does not fit size %d", rel, c, e.Size)
				}
			}
			if e.lazy != nil {
				e.lazy.get()
			}
		}
		again, err := DecodeManifest(EncodeManifest(m))
		if err != nil || len(again.Files) != len(m.Files) {
			t.Fatalf("re-encoded manifest: %v", err)
		}
	})
}
