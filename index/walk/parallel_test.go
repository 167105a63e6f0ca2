package walk

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// TestWalkListsFoldersOnMoreThanOneGoroutine: with two cores the root's
// goroutine hands its first sub-folder to a second one (the root takes a
// slot like any folder; a slot fewer, it walked the whole tree alone),
// and the walk finds every file either way.
func TestWalkListsFoldersOnMoreThanOneGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	root := t.TempDir()
	var want []string
	for _, rel := range []string{"a/x.go", "b/y.go", "b/c/z.go", "top.go"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, rel)
	}
	w := &walker{root: Root{Abs: root, Real: root, Ignore: NewIgnorer(root, nil, t.TempDir())}, skipped: map[string]int{}}
	if err := w.walk(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := walked(w)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
	if n := w.spawned.Load(); n < 2 {
		t.Errorf("%d goroutines listed folders, want the root's and at least one more", n)
	}
}

// walked are the paths of the files a walk gave, in its batches' order.
func walked(w *walker) []string {
	var got []string
	for _, b := range w.batches {
		for _, f := range b {
			got = append(got, f.Rel)
		}
	}
	return got
}
