package index

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
)

// TestLargestFirst: a sync reads the n largest files first, from the
// largest down (by path among files of one size), then the others in the
// walk's order.
func TestLargestFirst(t *testing.T) {
	job := func(rel string, size int64) syncJob { return syncJob{File: walk.File{Rel: rel, Size: size}} }
	walked := []syncJob{job("b.go", 10), job("z.go", 500), job("a.go", 10), job("big.c", 90000), job("c.go", 0), job("m.go", 500), job("b.go", 10)}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{0, []string{"b.go", "z.go", "a.go", "big.c", "c.go", "m.go", "b.go"}},
		{1, []string{"big.c", "b.go", "z.go", "a.go", "c.go", "m.go", "b.go"}},
		{3, []string{"big.c", "m.go", "z.go", "b.go", "a.go", "c.go", "b.go"}},
		{100, []string{"big.c", "m.go", "z.go", "a.go", "b.go", "b.go", "c.go"}},
	} {
		todo := slices.Clone(walked)
		largestFirst(todo, c.n)
		var got []string
		for _, j := range todo {
			got = append(got, j.Rel)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("n=%d: order %v, want %v", c.n, got, c.want)
		}
	}
}

// TestFirstBuildTableBesideSettle: a first build that keeps its symbol
// table builds it once, while the settle's merges run, and the generation
// it publishes answers as a scan of every symbol does, an edit queued
// during the build included (listed over the table's base).
func TestFirstBuildTableBesideSettle(t *testing.T) {
	root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
	var ix *Index
	var once sync.Once
	opts := Options{Roots: []string{root}, CacheDir: cache, SymbolsOnDemand: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Progress: func(p Progress) {
			if p.Phase == "index" {
				// Queued while the sync runs: applied after the settle.
				once.Do(func() { ix.Update("gen/queued.go", []byte("package gen\n\nfunc Sym7Queued() {}\n")) })
			}
		}}
	os.MkdirAll(filepath.Join(root, "gen"), 0o755)
	ix, err := Open(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	tab := ix.Snapshot().st.tab
	if !tab.Built() || tab.Builds() != 1 {
		t.Fatalf("the first build's table: built %v, %d builds; want true and 1", tab.Built(), tab.Builds())
	}
	if syms := ix.Snapshot().Symbols("Sym7Queued", 5); len(syms) != 1 {
		t.Fatalf("the edit queued during the build is not in the table: %+v", syms)
	}
	checkSymbols(t, ix, "after a first build with an edit queued")
	if _, err := os.Stat(filepath.Join(ix.roots[0].cache, store.SymtabFile)); err != nil {
		t.Errorf("no table kept in the cache: %v", err)
	}
}

// TestSmallBuild: a first build is small when its files hold fewer than
// smallBuildBytes (each counted up to the size limit), while it has
// written fewer than batchGrowAfter documents; any other sync is not.
func TestSmallBuild(t *testing.T) {
	job := func(size int64) syncJob { return syncJob{File: walk.File{Size: size}} }
	if got := readBytes([]syncJob{job(10), job(5 << 20), job(0)}, 1<<20); got != 10+1<<20 {
		t.Errorf("readBytes = %d, want %d", got, 10+1<<20)
	}
	for _, c := range []struct {
		first, small bool
		written      int64
		want         bool
	}{
		{true, true, 0, true},
		{true, true, batchGrowAfter - 1, true},
		{true, true, batchGrowAfter, false},
		{true, false, 0, false},
		{false, true, 0, false},
	} {
		s := &syncRun{first: c.first, small: c.small}
		if got := s.smallBuild(c.written); got != c.want {
			t.Errorf("first %v, small %v, %d written: smallBuild = %v, want %v", c.first, c.small, c.written, got, c.want)
		}
	}
}
