package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	fx "github.com/askls/askls/internal/fixture"
)

// openNamed opens the fixture name in a root folder called dir, as a
// clone of a project is named after it.
func openNamed(t *testing.T, name, dir string) *fixture {
	t.Helper()
	root := filepath.Join(t.TempDir(), dir)
	if err := os.Rename(fx.Write(t, filepath.Join("testdata", name)), root); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, t.TempDir())
	t.Cleanup(func() { f.ix.Close() })
	return f
}

// The project's own name in a question is no evidence: the code that
// reads the config file comes first, not the packaging that names the
// project in every line, nor the vendored parser or the example.
func TestSearchProjectNameIsNoEvidence(t *testing.T) {
	t.Parallel()
	f := openNamed(t, "rank_priors.txtar", "tarn")
	q := "how does tarn read its config file"
	files := firstFiles(search(t, f.ix, q))
	if len(files) == 0 || files[0] != "src/config.go" {
		t.Fatalf("Search(%q) files = %v, want src/config.go first", q, files)
	}
	// Without the priors, the name alone keeps the formula out of first
	// place; with the name as evidence too, the formula comes first (the
	// fixture's premise).
	f.ix.rank.PackagingFactor = 1
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != "src/config.go" {
		t.Errorf("without priors, files = %v, want src/config.go first", files)
	}
	f.ix.projectNames = nil
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != "Formula/tarn.rb" {
		t.Errorf("with the project's name as evidence, files = %v, want Formula/tarn.rb first (the fixture's premise)", files)
	}
}

// Vendored code, packaging and examples rank below the project's own
// code unless the question asks for them.
func TestSearchPriorsByClass(t *testing.T) {
	t.Parallel()
	f := openNamed(t, "rank_priors.txtar", "tarn")
	files := firstFiles(search(t, f.ix, "read a config file"))
	if len(files) < 4 || files[0] != "src/config.go" {
		t.Fatalf("files = %v, want src/config.go first", files)
	}
	for _, p := range []string{"deps/ini/parse.c", "examples/reader/main.go", "Formula/tarn.rb"} {
		if i := slices.Index(files, p); i < 1 {
			t.Errorf("%s at %d in %v, want it after src/config.go", p, i, files)
		}
	}
	// Asked for, a class is not lowered: a question naming the vendored
	// project's folder, or asking for an example.
	if files := firstFiles(search(t, f.ix, "how does ini read a config file")); len(files) == 0 || files[0] != "deps/ini/parse.c" {
		t.Errorf("a question naming ini: files = %v, want deps/ini/parse.c first", files)
	}
	score := func(q, path string) float64 {
		for _, h := range search(t, f.ix, q) {
			if h.Path == path {
				return h.Score
			}
		}
		return 0
	}
	const example = "examples/reader/main.go"
	asked, plain := score("an example that reads a config file", example), score("code that reads a config file", example)
	f.ix.rank.ExampleFactor = 0.01
	if s := score("an example that reads a config file", example); s != asked || s == 0 {
		t.Errorf("asking for an example: the example scores %v with ExampleFactor 0.01, %v by default; want the same", s, asked)
	}
	if s := score("code that reads a config file", example); s >= plain {
		t.Errorf("not asking for one: the example scores %v with ExampleFactor 0.01, %v by default; want lower", s, plain)
	}
}
