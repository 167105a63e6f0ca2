package index

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestColdBuildFindsEveryFile builds a first index of several batches
// written by both submitting goroutines and finds files by their words,
// their symbols and their paths.
func TestColdBuildFindsEveryFile(t *testing.T) {
	root, n := writeColdTree(t)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	if f.stats.Indexed != n {
		t.Fatalf("indexed %d files, want %d", f.stats.Indexed, n)
	}
	for _, i := range []int{0, 517, n - 1} {
		want := fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)
		for _, q := range []string{fmt.Sprintf("zebra%04d", i), fmt.Sprintf("Handle%04dRequest", i), fmt.Sprintf("file%04d", i)} {
			hits := search(t, f.ix, q)
			if len(hits) == 0 || hits[0].Path != want {
				t.Errorf("Search(%q) = %v, want %s first", q, hits, want)
			}
		}
		// The entries reloaded from the manifest (reloadEntries) carry
		// their symbols, paths and languages.
		name := fmt.Sprintf("Handle%04dRequest", i)
		syms := f.ix.Snapshot().Symbols(name, 5)
		if len(syms) != 1 || syms[0].Path != want || syms[0].Line != 4 || syms[0].Language != "go" || syms[0].Kind != "func" {
			t.Errorf("Symbols(%s) = %+v", name, syms)
		}
	}
}

// writeColdTree writes a tree of 1,050 files, several batches: file i is
// pkgNN/fileIIII.go, defines HandleIIIIRequest and says zebraIIII.
func writeColdTree(t *testing.T) (root string, n int) {
	t.Helper()
	root = t.TempDir()
	n = 1050
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%40))
		os.MkdirAll(dir, 0o755)
		src := fmt.Sprintf("package p\n\n// Word%d says zebra%04d quietly.\nfunc Handle%04dRequest() int { return %d }\n", i, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%04d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, n
}

// TestColdBuildPublishesFilesEarly pauses a first build part way and
// checks that the files read so far are listed, readable, greppable and
// in the symbol table, and that Search finds what is written so far, only
// in files the generation lists; once the build ends, everything is found.
func TestColdBuildPublishesFilesEarly(t *testing.T) {
	defer func(d time.Duration) { publishEvery = d }(publishEvery)
	publishEvery = 2 * time.Millisecond
	root, n := writeColdTree(t)
	var ix *Index
	var paused atomic.Bool
	var seen []string // what the paused build showed, checked below
	var hits []Hit
	var files []string
	var mid Stats
	progress := func(p Progress) {
		if p.Phase != "index" || p.Done < n/4 || !paused.CompareAndSwap(false, true) {
			return
		}
		// This submitter waits; the other goes on and writes its first
		// batch. Wait (bounded: a failure, not a hang) for a generation
		// whose files Search finds.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			snap := ix.Snapshot()
			hits, _ = snap.Search(context.Background(), "quietly", 100, Filter{})
			if len(hits) > 0 {
				break
			}
		}
		mid = ix.Stats()
		snap := ix.Snapshot()
		files, _ = snap.Files("**")
		if len(files) == 0 {
			return
		}
		p0 := files[0]
		num := strings.TrimSuffix(p0[len(p0)-7:], ".go")
		seen = append(seen, p0)
		if syms := snap.Symbols("Handle"+num+"Request", 1); len(syms) == 1 {
			seen = append(seen, "symbol "+syms[0].Path)
		}
		if g, err := snap.Grep(context.Background(), "zebra"+num, "", 5); err == nil && len(g) == 1 {
			seen = append(seen, "grep "+g[0].Path)
		}
		if txt, err := snap.Read(p0, 3, 3); err == nil {
			seen = append(seen, "read "+txt.Content)
		}
	}
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !paused.Load() {
		t.Fatal("the build never reported a quarter of its files")
	}
	if mid.Files == 0 || mid.Files >= n || mid.Ready {
		t.Fatalf("part way: %+v, want some of %d files, not Ready", mid, n)
	}
	if len(hits) == 0 {
		t.Fatal("part way, Search found nothing")
	}
	for _, h := range hits {
		if _, ok := slices.BinarySearch(files, h.Path); !ok {
			t.Errorf("part way, Search found %s, which the generation does not list", h.Path)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("part way the early generation showed only %q", seen)
	}
	p0 := seen[0]
	num := strings.TrimSuffix(p0[len(p0)-7:], ".go")
	i, _ := strconv.Atoi(num)
	want := []string{p0, "symbol " + p0, "grep " + p0, fmt.Sprintf("read // Word%d says zebra%s quietly.\n", i, num)}
	if !slices.Equal(seen, want) {
		t.Errorf("part way: %q, want %q", seen, want)
	}
	if st := ix.Stats(); !st.Ready || st.Files != n {
		t.Errorf("after the build: %+v", st)
	}
	if hits := search(t, ix, "zebra"+num); len(hits) == 0 || hits[0].Path != p0 {
		t.Errorf("after the build, Search(zebra%s) = %v", num, hits)
	}
}
