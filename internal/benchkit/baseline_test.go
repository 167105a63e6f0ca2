package benchkit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/internal/fixture"
)

func TestBaselineIndexesWhatAsklsIndexes(t *testing.T) {
	root := fixture.Tree(t, map[string]string{
		"crypto/compare.go":      "package crypto\n\nfunc ConstantTimeCompare(x, y []byte) int { return 0 }\n",
		"crypto/compare_test.go": "package crypto\n\n// ConstantTimeCompare is tested here.\n",
		"blob.dat":               "ConstantTimeCompare\x00binary",
		"build/out.go":           "package out // ConstantTimeCompare\n",
		".gitignore":             "build/\n",
	})
	ctx := context.Background()
	paths := func(b *Baseline, q string) string {
		t.Helper()
		hits, err := b.Search(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, h := range hits {
			ps = append(ps, h.Path)
		}
		return strings.Join(ps, " ")
	}

	noTests, st, err := BuildBaseline(ctx, root, t.TempDir(), BaselineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer noTests.Close()
	// .gitignore itself is a text file the index keeps.
	if st.Files != 2 || st.Chunks != 2 {
		t.Errorf("without tests: %+v, want 2 files (compare.go, .gitignore) in 2 chunks", st)
	}
	if got := paths(noTests, "ConstantTimeCompare"); got != "crypto/compare.go" {
		t.Errorf("without tests, ConstantTimeCompare is in %q; want only crypto/compare.go", got)
	}

	dir := t.TempDir()
	all, st, err := BuildBaseline(ctx, root, dir, BaselineOptions{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 {
		t.Errorf("with tests: %d files, want 3", st.Files)
	}
	if got := paths(all, "ConstantTimeCompare"); !strings.Contains(got, "crypto/compare_test.go") || strings.Contains(got, "blob.dat") || strings.Contains(got, "build/") {
		t.Errorf("with tests, ConstantTimeCompare is in %q; want the test file, not the binary or the ignored folder", got)
	}
	if err := all.Update("crypto/compare.go", []byte("package crypto\n\nfunc Equal() {}\n")); err != nil {
		t.Fatal(err)
	}
	if got := paths(all, "Equal"); got != "crypto/compare.go" {
		t.Errorf("after Update, Equal is in %q", got)
	}
	if err := all.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "baseline.bleve")); !os.IsNotExist(err) {
		t.Errorf("Close left the baseline index behind: %v", err)
	}
}
