//go:build unix

package walk

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestWalkReportsEachFilesSizeAndMTimeAsStatDoes: the size and mtime the
// walk reports are os.Lstat's (a link's, its target's), to the
// nanosecond: the index compares them with what its manifest holds, and
// any difference would read every file again. Folders, ignored files,
// FIFOs and links to folders are not files.
func TestWalkReportsEachFilesSizeAndMTimeAsStatDoes(t *testing.T) {
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"a.go": "package a\n", "sub/b.go": "package b // longer\n", "sub/deeper/c.txt": "c",
		"ignored.log": "x", ".gitignore": "*.log\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("a.go", filepath.Join(dir, "link.go"))
	os.Symlink("sub", filepath.Join(dir, "sublink"))
	syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644)
	res, err := Walk(t.Context(), Root{Abs: dir, Real: dir, Ignore: NewIgnorer(dir, nil, t.TempDir())}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files() {
		got = append(got, f.Rel)
		info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Rel)))
		if err != nil {
			t.Fatal(err)
		}
		if f.Size != info.Size() || f.MTime != info.ModTime().UnixNano() {
			t.Errorf("%s: size %d mtime %d, stat says %d %d", f.Rel, f.Size, f.MTime, info.Size(), info.ModTime().UnixNano())
		}
	}
	slices.Sort(got)
	if want := []string{".gitignore", "a.go", "link.go", "sub/b.go", "sub/deeper/c.txt"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	if res.Skipped["symlink to folder"] != 1 {
		t.Errorf("skipped %v, want a symlink to folder", res.Skipped)
	}
}

// TestWalkStatsEntriesOfUnknownType: a listing without types (some file
// systems give DT_UNKNOWN) is stat'ed, and the folder's files and
// sub-folders are the same as with the types.
func TestWalkStatsEntriesOfUnknownType(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644)
	os.Symlink("a.go", filepath.Join(dir, "link.go"))
	syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644)
	take := func(unknown bool) ([]string, []string) {
		w := &walker{root: Root{Abs: dir, Real: dir, Ignore: NewIgnorer(dir, nil, t.TempDir())}, skipped: map[string]int{}}
		f, err := openFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer f.close()
		entries, err := f.list(nil)
		if err != nil {
			t.Fatal(err)
		}
		if unknown {
			for i := range entries {
				entries[i].typ = typeUnknown
			}
		}
		subdirs, err := w.entries(f, "", entries, w.root.Ignore.chain(""))
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, f := range (Result{Batches: w.batches}).Files() {
			files = append(files, f.Rel)
		}
		slices.Sort(files)
		return files, subdirs
	}
	files, subdirs := take(false)
	if want := []string{"a.go", "b.txt", "link.go"}; !slices.Equal(files, want) || !slices.Equal(subdirs, []string{"sub"}) {
		t.Fatalf("with types: files %v, folders %v", files, subdirs)
	}
	if uf, us := take(true); !slices.Equal(uf, files) || !slices.Equal(us, subdirs) {
		t.Errorf("without types: files %v, folders %v; with them %v, %v", uf, us, files, subdirs)
	}
}

// TestStatFailureNamesWhy: an entry gone or changed between the listing
// and its stat is "vanished"; one the system refuses to stat is
// "unreadable" (permissions do not stop root, so not made on disk).
func TestStatFailureNamesWhy(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "vanished"},
		{&fs.PathError{Op: "fstatat", Path: "x", Err: syscall.ENOENT}, "vanished"},
		{&fs.PathError{Op: "fstatat", Path: "x", Err: syscall.EACCES}, "unreadable"},
	} {
		if got := statFailure(c.err); got != c.want {
			t.Errorf("statFailure(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
