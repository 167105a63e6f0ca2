package walk

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// direntRecord is one linux_dirent64 record, padded to 8 bytes as the
// kernel writes them.
func direntRecord(ino uint64, typ byte, name string) []byte {
	n := (direntName + len(name) + 1 + 7) &^ 7
	rec := make([]byte, n)
	binary.NativeEndian.PutUint64(rec[direntIno:], ino)
	binary.NativeEndian.PutUint16(rec[direntReclen:], uint16(n))
	rec[direntType] = typ
	copy(rec[direntName:], name)
	return rec
}

// TestAppendDirentsReadsTheKernelsRecords: names and types from a
// getdents buffer, without ".", "..", deleted entries (inode 0) or a
// record cut short; a type the file system does not give is typeUnknown.
func TestAppendDirentsReadsTheKernelsRecords(t *testing.T) {
	var buf []byte
	for _, r := range []struct {
		ino  uint64
		typ  byte
		name string
	}{
		{1, unix.DT_DIR, "."}, {2, unix.DT_DIR, ".."}, {3, unix.DT_REG, "main.go"}, {4, unix.DT_DIR, "sub"},
		{5, unix.DT_LNK, "link"}, {6, unix.DT_FIFO, "pipe"}, {0, unix.DT_REG, "deleted.go"},
		{7, unix.DT_UNKNOWN, "unknown"}, {8, unix.DT_REG, "a-name-of-exactly-twenty-nine"},
	} {
		buf = append(buf, direntRecord(r.ino, r.typ, r.name)...)
	}
	cut := direntRecord(9, unix.DT_REG, "cut.go")
	buf = append(buf, cut[:len(cut)-4]...)
	got := appendDirents(nil, buf)
	want := []dirent{{"main.go", 0}, {"sub", fs.ModeDir}, {"link", fs.ModeSymlink}, {"pipe", fs.ModeIrregular},
		{"unknown", typeUnknown}, {"a-name-of-exactly-twenty-nine", 0}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
