package store

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// keptFixture builds the table of the fixture's files in dir (which
// writes its file) and returns the files and the file's bytes.
func keptFixture(t *testing.T, dir string) (map[string]*Entry, []byte) {
	t.Helper()
	files := fixtureFiles(t)
	for p, e := range files {
		e.Hash[0], e.Hash[1] = byte(len(p)), p[0] // any hash, one per file
	}
	tab := NextSymbolTable(NewStoredSymbolTable(nil, nil, []SymRoot{{Dir: dir}}), files, nil)
	tab.Build()
	if tab.Builds() != 1 {
		t.Fatalf("%d tables built, want 1", tab.Builds())
	}
	data, err := os.ReadFile(filepath.Join(dir, SymtabFile))
	if err != nil {
		t.Fatal(err)
	}
	return files, data
}

// TestSymbolTableFileRoundTrip: a table read from its file answers as
// the table built, and as a scan.
func TestSymbolTableFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	files, _ := keptFixture(t, dir)
	read := NextSymbolTable(NewStoredSymbolTable(nil, nil, []SymRoot{{Dir: dir}}), files, nil)
	checkLookup(t, read, files, "read")
	if read.Reads() != 1 || read.Builds() != 0 {
		t.Fatalf("%d read, %d built; want 1 and 0", read.Reads(), read.Builds())
	}
	for _, q := range []string{"Cart", "Total", "nothing"} {
		built := NextSymbolTable(NewSymbolTable(nil), files, nil)
		if got, want := read.Named(q, files), built.Named(q, files); !reflect.DeepEqual(got, want) {
			t.Errorf("Named(%q) read %+v, built %+v", q, got, want)
		}
	}
}

// TestDamagedSymbolTableFileNeverPanics: every byte of a table file
// changed in turn, with its checksum made to match again (so that the
// other checks are what stands): the table is either refused (and
// built) or answers without a panic.
func TestDamagedSymbolTableFileNeverPanics(t *testing.T) {
	dir := t.TempDir()
	files, data := keptFixture(t, dir)
	path := filepath.Join(dir, SymtabFile)
	for i := symtabHeadLen; i < len(data)-4; i++ {
		for _, flip := range []byte{0x01, 0x80} {
			bad := append([]byte(nil), data...)
			bad[i] ^= flip
			binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("byte %d ^ %#x: panic %v", i, flip, r)
					}
				}()
				tab := NextSymbolTable(NewStoredSymbolTable(nil, nil, []SymRoot{{Dir: dir}}), files, nil)
				tab.sh.closed = true // keep the damaged file for the next byte
				for _, q := range []string{"c", "Cart.Checkout", "ym", "e", "Total"} {
					tab.Lookup(q, 50, files)
					tab.Named(q, files)
				}
			}()
		}
	}
}
