package store

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckSegmentFile reads a 46 MB segment-shaped file (random
// bytes, its CRC-32 at the end, as zap writes it) and checks it, as Open
// does for a segment it has not checked before (segments.ok). The file is
// in the page cache after the first run, as a segment bleve just wrote is.
//
//	go test -run '^$' -bench CheckSegmentFile -benchtime 20x ./index/store/
func BenchmarkCheckSegmentFile(b *testing.B) {
	data := make([]byte, 46<<20)
	rand.New(rand.NewSource(1)).Read(data)
	binary.BigEndian.PutUint32(data[len(data)-4:], crc32.ChecksumIEEE(data[:len(data)-4]))
	path := filepath.Join(b.TempDir(), "000000000001.zap")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := checkSegmentFile(path); err != nil {
			b.Fatal(err)
		}
	}
}
