//go:build unix

package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWalkSkipsFIFOsAndSpecialFileSystems(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.go"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink("pipe.go", filepath.Join(root, "link.go"))
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	if f.stats.Files != 1 {
		t.Errorf("indexed %d files, want 1 (stats %+v)", f.stats.Files, f.stats)
	}
	if _, err := f.ix.Snapshot().Content("pipe.go"); err == nil {
		t.Errorf("the FIFO was read")
	}
	if _, err := os.Stat("/proc/self"); err == nil && runtime.GOOS == "linux" {
		_, err := Open(context.Background(), Options{Roots: []string{"/proc"}, CacheDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "special file system") {
			t.Errorf("Open(/proc) = %v, want a special file system error", err)
		}
	}
}

func TestWalkBudgetStopsWithAClearMessage(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 120; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(fmt.Sprintf("package p\n\nvar V%d = %d\n", i, i)), 0o644)
	}
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{MaxFiles: 100}, "more than 100 files to index"},
		{Options{MaxTotalBytes: 1000}, "more than 1000 bytes to index"},
	} {
		opts := tc.opts
		opts.Roots, opts.CacheDir = []string{root}, t.TempDir()
		opts.Logger = slog.New(slog.NewTextHandler(&logBuffer{}, nil))
		ix, err := Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ix.Sync(context.Background())
		ix.Close()
		if !errors.Is(err, ErrOverBudget) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), root) {
			t.Errorf("Sync with %+v: err = %v, want ErrOverBudget naming %s and %q", tc.opts, err, root, tc.want)
		}
	}
	f := openFixture(t, root, t.TempDir()) // the defaults hold it
	f.ix.Close()
	if f.stats.Files != 120 {
		t.Errorf("with the default budget: %d files", f.stats.Files)
	}
}

func TestHomeFolderIsOnlyReadFromOpenBuffers(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.WriteFile(filepath.Join(home, "notes.go"), []byte("package notes\n\nfunc OnDisk() {}\n"), 0o644)
	if why := BroadRoot(home); !strings.Contains(why, "home folder") {
		t.Fatalf("BroadRoot(home) = %q", why)
	}
	if why := BroadRoot("/"); !strings.Contains(why, "root of the file system") {
		t.Errorf("BroadRoot(/) = %q", why)
	}
	if why := BroadRoot(filepath.Join(home, "..")); why != "" {
		t.Errorf("BroadRoot of a plain folder = %q", why)
	}
	f := openFixture(t, home, t.TempDir())
	defer f.ix.Close()
	if n := f.ix.Notices(); len(n) != 1 || !strings.Contains(n[0], "home folder") || !strings.Contains(n[0], "--allow-broad-root") {
		t.Errorf("notices = %q", n)
	}
	if f.stats.Files != 0 {
		t.Errorf("the home folder was walked: %+v", f.stats)
	}
	if _, err := f.ix.Snapshot().Content("notes.go"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a closed file of the home folder was read: %v", err)
	}
	gen := f.ix.Update("draft.go", []byte("package draft\n\nfunc InTheBuffer() {}\n"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f.ix.WaitFor(ctx, gen)
	if hits := search(t, f.ix, "InTheBuffer"); len(hits) == 0 || hits[0].Path != "draft.go" {
		t.Errorf("an open buffer of the home folder is not searchable: %+v", hits)
	}
	if hits := search(t, f.ix, "OnDisk"); len(hits) != 0 {
		t.Errorf("a file on disk is searchable: %+v", hits)
	}

	ix, err := Open(context.Background(), Options{Roots: []string{home}, CacheDir: t.TempDir(), AllowBroadRoots: true,
		Logger: slog.New(slog.NewTextHandler(&logBuffer{}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st, err := ix.Sync(context.Background()); err != nil || st.Files != 1 || len(ix.Notices()) != 0 {
		t.Errorf("allowed explicitly: %+v %v %q", st, err, ix.Notices())
	}
}
