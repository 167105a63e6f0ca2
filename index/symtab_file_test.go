package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
)

// keptTable builds the symbol table of f's index (which keeps it in the
// cache folder), closes the index and returns the table file's path.
func keptTable(t *testing.T, f *fixture) string {
	t.Helper()
	f.ix.Snapshot().st.tab.Build()
	path := filepath.Join(f.ix.roots[0].cache, store.SymtabFile)
	f.ix.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no symbol table kept: %v", err)
	}
	return path
}

// TestSymbolTableIsReadAfterARestart: the table built after the first
// sync is kept in the cache; after a restart the first lookup reads it
// (no build), and answers as a scan of every symbol does, with files
// changed on disk meanwhile searched in their entries.
func TestSymbolTableIsReadAfterARestart(t *testing.T) {
	for _, large := range []bool{false, true} {
		t.Run(fmt.Sprintf("records only %v", large), func(t *testing.T) {
			if large {
				defer func(n int) { store.KeepDecodedBelow = n }(store.KeepDecodedBelow)
				store.KeepDecodedBelow = 0
			}
			root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
			keptTable(t, openFixture(t, root, cache))

			f := openFixture(t, root, cache)
			tab := f.ix.Snapshot().st.tab
			checkSymbols(t, f.ix, "after a restart")
			if tab.Builds() != 0 || tab.Reads() != 1 {
				t.Errorf("after a restart: %d tables built, %d read; want 0 and 1\n%s", tab.Builds(), tab.Reads(), f.log)
			}
			keptTable(t, f)

			// Files changed while askls was not running: read, the changed
			// files searched in their entries.
			os.WriteFile(filepath.Join(root, "cart/cart.go"), []byte("package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Gen7() {}\nfunc GenCart() {}\n"), 0o644)
			os.MkdirAll(filepath.Join(root, "gen"), 0o755)
			os.WriteFile(filepath.Join(root, "gen/new.go"), []byte("package gen\n\nfunc Sym7Gen() {}\nvar cartel = 1\n"), 0o644)
			f = openFixture(t, root, cache)
			defer f.ix.Close()
			if f.stats.Indexed != 2 {
				t.Fatalf("want 2 files re-indexed, got %+v", f.stats)
			}
			checkSymbols(t, f.ix, "after files changed on disk")
			if tab := f.ix.Snapshot().st.tab; tab.Builds() != 0 || tab.Reads() != 1 {
				t.Errorf("after changes on disk: %d tables built, %d read; want 0 and 1", tab.Builds(), tab.Reads())
			}
			f.ix.WaitFor(context.Background(), f.ix.Update("gen/new.go", []byte("package gen\n\nfunc Later() {}\n")))
			checkSymbols(t, f.ix, "after an edit")
		})
	}
}

// TestSymbolsOnDemand: with Options.SymbolsOnDemand a first build keeps
// the table in the cache, whatever its size (a large tree's too); after a
// restart none is read or built before the first lookup, which reads it.
func TestSymbolsOnDemand(t *testing.T) {
	for _, large := range []bool{false, true} {
		t.Run(fmt.Sprintf("large=%v", large), func(t *testing.T) {
			if large {
				defer func(n int) { store.KeepDecodedBelow = n }(store.KeepDecodedBelow)
				store.KeepDecodedBelow = 0 // as for the kernel's table
			}
			symbolsOnDemand(t)
		})
	}
}

func symbolsOnDemand(t *testing.T) {
	root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
	open := func() *Index {
		ix, err := Open(t.Context(), Options{Roots: []string{root}, CacheDir: cache, SymbolsOnDemand: true,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Sync(t.Context()); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	ix := open()
	if s := ix.Snapshot(); !s.st.tab.Built() || s.st.tab.Builds() != 1 {
		t.Fatalf("the first build did not build the symbol table (%d built)", s.st.tab.Builds())
	}
	ix.Close()
	ix = open()
	defer ix.Close()
	s := ix.Snapshot()
	if s.st.tab.Built() {
		t.Fatal("symbol table ready before any lookup")
	}
	if syms := s.Symbols("Total", 10); len(syms) == 0 {
		t.Fatal("Symbols(Total) found nothing")
	}
	if s.st.tab.Builds() != 0 || s.st.tab.Reads() != 1 {
		t.Errorf("the first lookup built %d tables and read %d; want 0 and 1", s.st.tab.Builds(), s.st.tab.Reads())
	}
	checkSymbols(t, ix, "read after a restart")
}

// TestUnusableSymbolTableIsBuiltAgain: a table file that is damaged,
// cut short, of another version, gone, or that too many files changed
// since, is built again at the first lookup, with a log line saying why,
// never a crash or a wrong answer; the table is then kept again.
func TestUnusableSymbolTableIsBuiltAgain(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		damage    func(t *testing.T, root, path string)
	}{
		{"one byte flipped", "checksum", func(t *testing.T, _, path string) { flipEvery(t, path, 101) }},
		{"cut short", "cannot be used", func(t *testing.T, _, path string) { os.Truncate(path, 60) }},
		{"empty", "not a symbol table", func(t *testing.T, _, path string) { os.WriteFile(path, nil, 0o644) }},
		{"another version", "version", func(t *testing.T, _, path string) {
			data, _ := os.ReadFile(path)
			binary.LittleEndian.PutUint32(data[8:], 99)
			os.WriteFile(path, data, 0o644)
		}},
		{"removed", "no symbol table kept", func(t *testing.T, _, path string) { os.Remove(path) }},
		{"many files changed", "files changed since", func(t *testing.T, root, _ string) {
			writeGenerated(t, root, 2*store.MaxOver, "w", 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, cache := t.TempDir(), t.TempDir()
			writeGenerated(t, root, 40, "v", 1)
			path := keptTable(t, openFixture(t, root, cache))
			tc.damage(t, root, path)
			f := openFixture(t, root, cache)
			checkSymbols(t, f.ix, tc.name)
			for _, name := range []string{"F0", "F17", "G39_2"} {
				if findSymbol(f.ix, name) == "" {
					t.Errorf("%s not found", name)
				}
			}
			tab := f.ix.Snapshot().st.tab
			if tab.Builds() != 1 || tab.Reads() != 0 || !strings.Contains(f.log.String(), tc.log) {
				t.Errorf("%d tables built, %d read; want 1 and 0, and a log line with %q:\n%s", tab.Builds(), tab.Reads(), tc.log, f.log)
			}
			keptTable(t, f)
			f = openFixture(t, root, cache)
			defer f.ix.Close()
			checkSymbols(t, f.ix, tc.name+", kept again")
			if tab := f.ix.Snapshot().st.tab; tab.Builds() != 0 || tab.Reads() != 1 {
				t.Errorf("the table built again was not kept: %d built, %d read", tab.Builds(), tab.Reads())
			}
		})
	}
}

// flipEvery flips a bit of every n-th byte of the file at path, after its
// header.
func flipEvery(t *testing.T, path string, n int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 16; i < len(data); i += n {
		data[i] ^= 0x10
	}
	os.WriteFile(path, data, 0o644)
}

// TestSymbolTablesOfSeveralRoots: each root keeps its own table; after a
// restart both are read and the lookups span both roots.
func TestSymbolTablesOfSeveralRoots(t *testing.T) {
	a, b, cache := t.TempDir(), writeTxtar(t, "workspace.txtar"), t.TempDir()
	writeGenerated(t, a, 30, "a", 1)
	open := func() *Index {
		ix, err := Open(t.Context(), Options{Roots: []string{a, b}, CacheDir: cache, Debounce: time.Millisecond,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Sync(t.Context()); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	ix := open()
	checkSymbols(t, ix, "two roots")
	ix.Snapshot().st.tab.Build()
	ix.Close()
	for _, r := range ix.roots {
		if _, err := os.Stat(filepath.Join(r.cache, store.SymtabFile)); err != nil {
			t.Errorf("root %s keeps no table: %v", r.abs, err)
		}
	}
	ix = open()
	defer ix.Close()
	checkSymbols(t, ix, "two roots, after a restart")
	if tab := ix.Snapshot().st.tab; tab.Builds() != 0 || tab.Reads() != 2 {
		t.Errorf("after a restart: %d tables built, %d read; want 0 and 2", tab.Builds(), tab.Reads())
	}
	if got := ix.Snapshot().Symbols("F17", 5); len(got) == 0 || !strings.HasSuffix(got[0].Path, "f0017.go") {
		t.Errorf("Symbols(F17) = %+v", got)
	}
}
