//go:build unix

package walk

import (
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
	for _, f := range res.Files {
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
