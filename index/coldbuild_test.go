package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestColdBuildFindsEveryFile builds a first index large enough for the
// offline builder (analysed on the sync workers, see preAnalyse) and
// finds files by their words, their symbols and their paths.
func TestColdBuildFindsEveryFile(t *testing.T) {
	root := t.TempDir()
	n := coldBuildAbove + 50
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i%40))
		os.MkdirAll(dir, 0o755)
		src := fmt.Sprintf("package p\n\n// Word%d says zebra%04d quietly.\nfunc Handle%04dRequest() int { return %d }\n", i, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%04d.go", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	}
}
