package index

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestGlobsWithBracesClassesAndDoubleStars: list_files and grep's
// path_glob match with doublestar: braces ("**/*.{go,ts}" matched nothing
// before), classes, "**", the base-name rule; a bad glob is ErrBadQuery.
func TestGlobsWithBracesClassesAndDoubleStars(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a.go", "web/app.ts", "web/app.js", "web/deep/x.go", "docs/a.md", "b.go", "c.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte("package x\n"), 0o644)
	}
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	snap := f.ix.Snapshot()
	for glob, want := range map[string][]string{
		"**/*.{go,ts}": {"a.go", "b.go", "web/app.ts", "web/deep/x.go"},
		"*.{go,md}":    {"a.go", "b.go", "docs/a.md", "web/deep/x.go"},
		"web/*":        {"web/app.js", "web/app.ts"},
		"web/**":       {"web/app.js", "web/app.ts", "web/deep/x.go"},
		"[ab].go":      {"a.go", "b.go"},
		"[!a]*.go":     {"b.go", "web/deep/x.go"},
		"**/app.[jt]s": {"web/app.js", "web/app.ts"},
		"/docs/*.md":   {"docs/a.md"},
	} {
		got, err := snap.Files(glob)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Files(%q) = %v, %v; want %v", glob, got, err, want)
		}
	}
	for _, bad := range []string{"[", "{a,b", "a\\"} {
		if _, err := snap.Files(bad); !errors.Is(err, ErrBadQuery) {
			t.Errorf("Files(%q): err = %v, want ErrBadQuery", bad, err)
		}
	}
}
