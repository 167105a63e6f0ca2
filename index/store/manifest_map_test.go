//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/askls/askls/index/chunk"
)

// mappedFixture writes a manifest of two files, one with chunks, to dir
// and returns what was written.
func mappedFixture(t *testing.T, dir string) *Manifest {
	t.Helper()
	m := &Manifest{Version: ManifestVersion, Root: "/r", Files: map[string]*Entry{
		"a.go": {Size: 40, MTime: 7, Lang: "go", fresh: &freshParts{metas: []chunk.Meta{
			{Start: 1, End: 3, Symbol: "A", Kind: "func", Off: 0, Len: 20, Parts: []chunk.Part{{Start: 1, End: 2, Symbol: "B", Kind: "var"}}},
			{Start: 4, End: 6, Symbol: "C", Kind: "func", Off: 20, Len: 20}}, hashes: []uint64{9, 10}}},
		"b.bin": {Size: 3, Skip: "binary"},
	}}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), EncodeManifest(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

// within reports whether s lies in data.
func within(s string, data []byte) bool {
	if len(s) == 0 || len(data) == 0 {
		return false
	}
	p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return p >= start && p-start < uintptr(len(data))
}

// TestMappedManifestKeepsOnlyChunkBlocksInTheMapping: a loaded manifest
// is mapped; its entries' strings and decoded chunks are on the heap,
// only the encoded chunk blocks lie in the mapping.
func TestMappedManifestKeepsOnlyChunkBlocksInTheMapping(t *testing.T) {
	dir := t.TempDir()
	want := mappedFixture(t, dir)
	m, err := LoadManifest(dir, "/r")
	if err != nil {
		t.Fatal(err)
	}
	a, bin := m.Files["a.go"], m.Files["b.bin"]
	if a == nil || bin == nil || a.lazyChunks == nil || a.lazyChunks.src == nil {
		t.Fatalf("loaded %+v: want a.go's chunks in the mapping", m.Files)
	}
	data := a.lazyChunks.src.data
	if !within(a.lazyChunks.raw, data) {
		t.Errorf("a.go's chunk block is not in the mapping")
	}
	for rel := range m.Files {
		if within(rel, data) {
			t.Errorf("path %q lies in the mapping", rel)
		}
	}
	if within(a.Lang, data) || within(bin.Skip, data) || within(m.Root, data) {
		t.Errorf("an entry's strings lie in the mapping")
	}
	got := a.Chunks()
	if !reflect.DeepEqual(got, want.Files["a.go"].freshMetas()) || !reflect.DeepEqual(a.DocHashes(), want.Files["a.go"].freshHashes()) {
		t.Errorf("chunks %+v, hashes %v; want %+v, %v", got, a.DocHashes(), want.Files["a.go"].freshMetas(), want.Files["a.go"].freshHashes())
	}
	for _, c := range got {
		if within(c.Symbol, data) || within(c.Kind, data) || (len(c.Parts) > 0 && within(c.Parts[0].Kind, data)) {
			t.Errorf("chunk %+v: a string lies in the mapping", c)
		}
	}
}

// TestMappedManifestCutShortIsNoCrash: another program cutting the
// manifest short under its mapping costs the chunks read after it (none)
// and a failed save, never a crash.
func TestMappedManifestCutShortIsNoCrash(t *testing.T) {
	dir := t.TempDir()
	mappedFixture(t, dir)
	m, err := LoadManifest(dir, "/r")
	if err != nil {
		t.Fatal(err)
	}
	if m.Files["a.go"].lazyChunks.src == nil {
		t.Skip("the manifest was read onto the heap")
	}
	if err := os.Truncate(filepath.Join(dir, ManifestFile), 0); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := m.Save(other); err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Errorf("saving a manifest whose mapping was cut short: %v, want an error saying it changed", err)
	}
	if got := m.Files["a.go"].Chunks(); len(got) != 0 {
		t.Errorf("chunks read from a mapping cut short: %+v, want none", got)
	}
}

// TestLazyChunksDecodedAtOnceAgree: goroutines asking a loaded entry for
// its chunks at once all get them (one decode is kept; run with -race).
func TestLazyChunksDecodedAtOnceAgree(t *testing.T) {
	dir := t.TempDir()
	want := mappedFixture(t, dir)
	m, err := LoadManifest(dir, "/r")
	if err != nil {
		t.Fatal(err)
	}
	a := m.Files["a.go"]
	got := make([][]chunk.Meta, 8)
	done := make(chan struct{})
	for i := range got {
		go func() {
			got[i] = a.Chunks()
			done <- struct{}{}
		}()
	}
	for range got {
		<-done
	}
	for i, c := range got {
		if !reflect.DeepEqual(c, want.Files["a.go"].freshMetas()) {
			t.Errorf("goroutine %d: %+v, want %+v", i, c, want.Files["a.go"].freshMetas())
		}
	}
	if !reflect.DeepEqual(a.Chunks(), want.Files["a.go"].freshMetas()) || !reflect.DeepEqual(a.DocHashes(), []uint64{9, 10}) {
		t.Errorf("kept: %+v %v", a.Chunks(), a.DocHashes())
	}
}

// TestManifestChecksumComputedOnceUntilTheFileChanges: a manifest whose
// checksum matched is not read through again while it is the same file
// (size, time, number): a checksum made wrong in place, with the time
// put back, goes unseen; the same file touched, or another file renamed
// over it with the same size and time, is checked again and refused.
func TestManifestChecksumComputedOnceUntilTheFileChanges(t *testing.T) {
	dir := t.TempDir()
	mappedFixture(t, dir)
	path := filepath.Join(dir, ManifestFile)
	if _, err := LoadManifest(dir, "/r"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestCheckedFile)); err != nil {
		t.Fatalf("no record of the checked manifest: %v", err)
	}
	info, _ := os.Stat(path)
	breakSum := func(path string) {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt([]byte{0, 0, 0, 0}, info.Size()-4)
		f.Close()
		os.Chtimes(path, info.ModTime(), info.ModTime())
	}
	breakSum(path)
	if _, err := LoadManifest(dir, "/r"); err != nil {
		t.Errorf("the same file, its checksum not computed again: %v", err)
	}
	later := info.ModTime().Add(time.Second)
	os.Chtimes(path, later, later)
	if _, err := LoadManifest(dir, "/r"); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("touched: %v, want its checksum checked", err)
	}

	// Another file of the same size and time renamed over a checked one.
	dir = t.TempDir()
	mappedFixture(t, dir)
	path = filepath.Join(dir, ManifestFile)
	if _, err := LoadManifest(dir, "/r"); err != nil {
		t.Fatal(err)
	}
	info, _ = os.Stat(path)
	other := filepath.Join(dir, "other")
	data, _ := os.ReadFile(path)
	os.WriteFile(other, data, 0o644)
	breakSum(other)
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadManifest(dir, "/r"); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("another file renamed over it: %v, want its checksum checked", err)
	}
}
