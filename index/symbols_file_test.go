package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/index/store"
)

// symbolFiles lists the symbols files of a root's cache folder.
func symbolFiles(t *testing.T, cache string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(cache, store.SymbolsPrefix+"*"))
	return m
}

// findSymbol is the path of the first symbol named name, or "".
func findSymbol(ix *Index, name string) string {
	for _, s := range ix.Snapshot().Symbols(name, 5) {
		if s.Name == name {
			return fmt.Sprintf("%s:%d", s.Path, s.Line)
		}
	}
	return ""
}

// TestSymbolsLiveInTheirOwnFile: the manifest no longer holds the
// symbols; after a restart they are read from the symbols file, an edit
// appends the edited file's block to it (the file is not written again),
// and the restart after that finds the new symbol and not the old one.
func TestSymbolsLiveInTheirOwnFile(t *testing.T) {
	defer func(n int) { store.KeepDecodedBelow = n }(store.KeepDecodedBelow)
	store.KeepDecodedBelow = 0 // as for a large tree
	root := t.TempDir()
	writeGenerated(t, root, 60, "s", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	rc := f.ix.roots[0].cache
	f.ix.Close()
	files := symbolFiles(t, rc)
	if len(files) != 1 {
		t.Fatalf("symbols files after the first build: %v", files)
	}
	first, _ := os.Stat(files[0])

	f = openFixture(t, root, cache)
	if got := findSymbol(f.ix, "F7"); got != "pkg07/f0007.go:4" {
		t.Errorf("F7 after a restart: %q", got)
	}
	// The symbol table of a large tree keeps records, not the files'
	// decoded symbols.
	for p, e := range f.ix.Snapshot().st.files {
		if e.SymbolsKept() {
			t.Errorf("%s: its decoded symbols are kept after a lookup", p)
		}
	}
	p := filepath.Join(root, "pkg07", "f0007.go")
	if err := os.WriteFile(p, []byte("package p\n\nfunc Renamed7() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.ix.Close()
	after := symbolFiles(t, rc)
	if len(after) != 1 || after[0] != files[0] {
		t.Fatalf("an edit replaced the symbols file: %v -> %v", files, after)
	}
	grown, _ := os.Stat(after[0])
	if grown.Size() <= first.Size() {
		t.Errorf("symbols file %d bytes before the edit, %d after: nothing appended", first.Size(), grown.Size())
	}

	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Indexed != 0 {
		t.Errorf("the restart re-indexed: %+v", f.stats)
	}
	if got := findSymbol(f.ix, "Renamed7"); got != "pkg07/f0007.go:3" {
		t.Errorf("Renamed7 after the edit and a restart: %q", got)
	}
	if got := findSymbol(f.ix, "F7"); got != "" {
		t.Errorf("F7 is still found after it was renamed: %s", got)
	}
	if got := findSymbol(f.ix, "F8"); got != "pkg08/f0008.go:4" {
		t.Errorf("F8 after the edit and a restart: %q", got)
	}
}

// TestSymbolsFileIsRewrittenWhenMostlyDead: once the blocks no manifest
// names outweigh the live ones, a save writes a new file with the live
// blocks only and removes the old one.
func TestSymbolsFileIsRewrittenWhenMostlyDead(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 40, "r", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	defer func() { f.ix.Close() }()
	rc := f.ix.roots[0].cache
	before := symbolFiles(t, rc)
	// Dead bytes must pass twice the live ones plus 1 MiB: make the
	// symbols of one file large, and change it until they do.
	big := func(v int) string {
		var b strings.Builder
		b.WriteString("package p\n\n")
		for i := 0; i < 3000; i++ {
			fmt.Fprintf(&b, "func Big%d_%d() {}\n", v, i)
		}
		return b.String()
	}
	p := filepath.Join(root, "pkg00", "f0000.go")
	for v := 0; v < 40 && len(symbolFiles(t, rc)) == 1 && symbolFiles(t, rc)[0] == before[0]; v++ {
		if err := os.WriteFile(p, []byte(big(v)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ix.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	after := symbolFiles(t, rc)
	if len(after) != 1 || after[0] == before[0] {
		t.Fatalf("symbols files: %v, then %v: never rewritten", before, after)
	}
	info, _ := os.Stat(after[0])
	if info.Size() > 2<<20 {
		t.Errorf("the rewritten file holds %d bytes: dead blocks kept", info.Size())
	}
	f.ix.Close()
	f = openFixture(t, root, cache)
	if f.stats.Indexed != 0 {
		t.Errorf("the restart re-indexed: %+v", f.stats)
	}
	if got := findSymbol(f.ix, "F3"); got != "pkg03/f0003.go:4" {
		t.Errorf("F3 after the rewrite: %q", got)
	}
}

// TestDamagedSymbolsAreComputedAgain: a flipped byte in the symbols file,
// or the file gone, costs no rebuild and loses no symbol: the blocks that
// fail their check are computed again from the files, whose content still
// has the hash the manifest records.
func TestDamagedSymbolsAreComputedAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"one byte flipped", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := store.SymbolsHeaderLen; i < len(data); i += 7 {
				data[i] ^= 0x20
			}
			os.WriteFile(path, data, 0o644)
		}},
		{"file removed", func(t *testing.T, path string) { os.Remove(path) }},
		{"file cut short", func(t *testing.T, path string) { os.Truncate(path, 40) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeGenerated(t, root, 30, "d", 1)
			cache := t.TempDir()
			f := openFixture(t, root, cache)
			rc := f.ix.roots[0].cache
			f.ix.Close()
			tc.damage(t, symbolFiles(t, rc)[0])
			f = openFixture(t, root, cache)
			defer f.ix.Close()
			if f.stats.Indexed != 0 || strings.Contains(f.log.String(), "rebuilding") {
				t.Errorf("damaged symbols caused a rebuild: %+v\n%s", f.stats, f.log)
			}
			for _, name := range []string{"F0", "F17", "G29_2"} {
				if findSymbol(f.ix, name) == "" {
					t.Errorf("%s not found", name)
				}
			}
		})
	}
}

// TestOldManifestVersionIsRebuiltCleanly: a cache written with another
// manifest version (the symbols inside the manifest) is rebuilt once,
// with a log line saying why, and its stale files are replaced.
func TestOldManifestVersionIsRebuiltCleanly(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 20, "v", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	rc := f.ix.roots[0].cache
	f.ix.Close()
	// Rewrite the manifest as version 11 (its version number follows the
	// magic; everything after it is then ignored), with a stray symbols
	// file beside it.
	mf := filepath.Join(rc, store.ManifestFile)
	data, err := os.ReadFile(mf)
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.DecodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	m.Version = 11
	if err := os.WriteFile(mf, store.EncodeManifest(m), 0o644); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(rc, store.SymbolsPrefix+"00000000000000aa")
	os.WriteFile(stray, []byte("old"), 0o644)

	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if !strings.Contains(f.log.String(), "manifest version 11") || f.stats.Indexed != 20 {
		t.Errorf("want one rebuild of 20 files naming the version: %+v\n%s", f.stats, f.log)
	}
	if _, err := os.Stat(stray); err == nil {
		t.Errorf("the stray symbols file is still there")
	}
	if findSymbol(f.ix, "F11") == "" {
		t.Errorf("F11 not found after the rebuild")
	}
}

// TestRecordTableMatchesAScan: a table that keeps records only (a large
// tree's) answers as a scan of every symbol does, after a restart (its
// symbols in the symbols file) and after edits.
func TestRecordTableMatchesAScan(t *testing.T) {
	defer func(n int) { store.KeepDecodedBelow = n }(store.KeepDecodedBelow)
	store.KeepDecodedBelow = 0
	root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
	f := openFixture(t, root, cache)
	checkSymbols(t, f.ix, "first sync")
	f.ix.Close()
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	checkSymbols(t, f.ix, "after a restart")
	ctx := context.Background()
	f.ix.WaitFor(ctx, f.ix.Update("cart/cart.go", []byte("package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Gen7() {}\nfunc GenCart() {}\n")))
	checkSymbols(t, f.ix, "after an edit")
}
