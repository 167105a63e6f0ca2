package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/askls/askls/index/walk"
)

// TestSearchPathGlobHasNoTermLimit: --path filters the candidates however
// many files it matches (before: at most 1,024 path terms, so a glob over
// 1,500 files lost f1400.go), and braces work ("**/*.{go,ts}").
func TestSearchPathGlobHasNoTermLimit(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 1500; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.go", i)), []byte(fmt.Sprintf("package p\n\n// Marker%d is here.\nvar V%d = %d\n", i, i, i)), 0o644)
	}
	os.WriteFile(filepath.Join(root, "web.ts"), []byte("// Marker1400 in TypeScript\nexport const w = 1;\n"), 0o644)
	os.WriteFile(filepath.Join(root, "notes.md"), []byte("Marker1400 in the notes\n"), 0o644)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	for glob, want := range map[string]map[string]bool{
		"*.go":         {"f1400.go": true},
		"**/*.{go,ts}": {"f1400.go": true, "web.ts": true},
		"*.md":         {"notes.md": true},
	} {
		hits, err := f.ix.Snapshot().Search(context.Background(), "Marker1400", 5, Filter{PathGlob: glob})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		g, _ := walk.NewGlob(glob)
		for _, h := range hits {
			got[h.Path] = true
			if !g.MatchString(h.Path) {
				t.Errorf("--path %s: hit %s", glob, h.Path)
			}
		}
		if len(hits) > 0 && !want[hits[0].Path] {
			t.Errorf("--path %s: first hit %s", glob, hits[0].Path)
		}
		for p := range want {
			if !got[p] {
				t.Errorf("--path %s: %s not found (hits %+v)", glob, p, hits)
			}
		}
	}
}
