package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWarmStartRemovesWhatTheWalkNoLongerSees: a warm start that finds
// every file it holds looks no further (removeGone), and one that does
// not removes what is gone, even when as many files appeared as went
// (the counts it compares are equal only when nothing went): an indexed
// file, and a file held as skipped (not UTF-8).
func TestWarmStartRemovesWhatTheWalkNoLongerSees(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	write := func(rel, content string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc Alpha() {}\n")
	write("b.go", "package a\n\nfunc Beta() {}\n")
	write("bad.txt", "\xff\xfe not text\n")
	files := func(f *fixture) []string {
		got, err := f.ix.Snapshot().Files("")
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		return got
	}
	skipped := func(f *fixture) []string {
		var got []string
		for rel := range f.ix.roots[0].skipped {
			got = append(got, rel)
		}
		slices.Sort(got)
		return got
	}
	f := openFixture(t, root, cache)
	f.ix.Close()

	f = openFixture(t, root, cache)
	if f.stats.Removed != 0 || f.stats.Unchanged != 2 || f.stats.Skipped["not utf-8"] != 1 {
		t.Errorf("nothing changed: %+v", f.stats)
	}
	f.ix.Close()

	os.Remove(filepath.Join(root, "b.go"))
	write("c.go", "package a\n\nfunc Gamma() {}\n")
	f = openFixture(t, root, cache)
	if f.stats.Removed != 1 || f.stats.Indexed != 1 {
		t.Errorf("b.go gone, c.go new: %+v, want 1 removed, 1 indexed", f.stats)
	}
	if got, want := files(f), []string{"a.go", "c.go"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	f.ix.Close()

	os.Remove(filepath.Join(root, "bad.txt"))
	write("worse.txt", "\xff\xfe not text either\n")
	f = openFixture(t, root, cache)
	if got, want := skipped(f), []string{"worse.txt"}; !slices.Equal(got, want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
	f.ix.Close()
	f = openFixture(t, root, cache) // the manifest saved it
	defer f.ix.Close()
	if got, want := skipped(f), []string{"worse.txt"}; !slices.Equal(got, want) {
		t.Errorf("after a restart, skipped %v, want %v", got, want)
	}
}

// TestASyncLeavesTheSnapshotItStartedFrom: a sync copies the file map
// only once it changes it (own); a snapshot taken before still lists
// what it listed, whether the sync changed nothing, removed a file or
// indexed one.
func TestASyncLeavesTheSnapshotItStartedFrom(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	for _, rel := range []string{"a.go", "b.go"} {
		os.WriteFile(filepath.Join(root, rel), []byte("package a\n\nfunc "+strings.ToUpper(rel[:1])+"() {}\n"), 0o644)
	}
	f := openFixture(t, root, cache)
	defer f.ix.Close()
	files := func(s *Snapshot) []string {
		got, err := s.Files("")
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		return got
	}
	sync := func() SyncStats {
		st, err := f.ix.Sync(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	before := f.ix.Snapshot()
	if st := sync(); st.Indexed != 0 || st.Removed != 0 {
		t.Fatalf("nothing changed: %+v", st)
	}
	if got := files(f.ix.Snapshot()); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Errorf("after a sync that changed nothing: %v", got)
	}
	os.Remove(filepath.Join(root, "b.go"))
	os.WriteFile(filepath.Join(root, "c.go"), []byte("package a\n\nfunc C() {}\n"), 0o644)
	if st := sync(); st.Indexed != 1 || st.Removed != 1 {
		t.Fatalf("b.go gone, c.go new: %+v", st)
	}
	if got := files(before); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Errorf("the snapshot taken before the syncs now lists %v", got)
	}
	if got := files(f.ix.Snapshot()); !slices.Equal(got, []string{"a.go", "c.go"}) {
		t.Errorf("after the sync: %v", got)
	}
}

// TestAnEditQueuedDuringASyncThatChangedNothingIsPublished: a change
// queued while a sync runs is applied by the sync's end (takePending); a
// sync that changed nothing copies the file map only then (own), and
// publishes the copy with the change, not the map it started from.
func TestAnEditQueuedDuringASyncThatChangedNothingIsPublished(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	a := filepath.Join(root, "a.go")
	os.WriteFile(a, []byte("package a\n\nfunc Alpha() {}\n"), 0o644)
	f := openFixture(t, root, cache)
	f.ix.Close()

	var ix *Index
	edited := false
	progress := func(p Progress) {
		if p.Phase != "index" || edited {
			return
		}
		// After the walk, which found nothing changed.
		edited = true
		os.WriteFile(a, []byte("package a\n\nfunc Omega() {}\n"), 0o644)
		ix.Changed(a)
	}
	ix, err := Open(t.Context(), Options{Roots: []string{root}, CacheDir: cache, Debounce: time.Millisecond, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !edited || st.Indexed != 0 {
		t.Fatalf("edited %v, stats %+v: want the edit queued during a sync that indexed nothing", edited, st)
	}
	syms, err := ix.Snapshot().Outline("a.go")
	if err != nil || len(syms) != 1 || syms[0].Name != "Omega" {
		t.Errorf("outline after the sync: %+v, %v; want Omega", syms, err)
	}
}
