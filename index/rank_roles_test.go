package index

import (
	"context"
	"testing"

	"github.com/askls/askls/corpus"
	fx "github.com/askls/askls/internal/fixture"
)

// classOfPath is the class the snapshot gives the indexed file p.
func classOfPath(t *testing.T, ix *Index, p string) corpus.Class {
	t.Helper()
	c, ok := ix.Snapshot().Class(p)
	if !ok {
		t.Fatalf("Class(%q): the snapshot does not hold it", p)
	}
	return c
}

// The script of a page that a Python project serves holds the words of
// its server's code in every label and request: it ranks below the code
// that does the work unless the question asks about the browser.
func TestSearchWebAssetOfAnotherLanguage(t *testing.T) {
	t.Parallel()
	f := openNamed(t, "rank_assets.txtar", "ledger")
	const script, code = "reports/static/viewer.js", "reports/__init__.py"
	if c := classOfPath(t, f.ix, script); !c.Has(corpus.Asset) {
		t.Errorf("%s is %v, want an asset", script, c)
	}
	q := "how is the checksum of an invoice hashed"
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != code {
		t.Errorf("Search(%q) files = %v, want %s first", q, files, code)
	}
	asked := "how does the browser page show the invoice checksum"
	if files := firstFiles(search(t, f.ix, asked)); len(files) == 0 || files[0] != script {
		t.Errorf("Search(%q) files = %v, want %s first (asked for)", asked, files, script)
	}
	// Without the prior the script comes first (the fixture's premise).
	f.ix.rank.AssetFactor = 1
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != script {
		t.Errorf("AssetFactor 1: files = %v, want %s first (the fixture's premise)", files, script)
	}
}

// In a project whose own language is JavaScript, its scripts are its
// product wherever they lie.
func TestWebAssetOfAWebProjectIsCode(t *testing.T) {
	t.Parallel()
	root := fx.Tree(t, map[string]string{
		"public/app.js":   "// app starts the page.\nfunction app() { return 1 }\n",
		"lib/router.js":   "// route matches a path.\nfunction route(p) { return p }\n",
		"lib/request.js":  "// parse reads a request.\nfunction parse(r) { return r }\n",
		"tools/build.py":  "def build():\n    return 1\n",
		"public/site.css": "body { margin: 0; }\n",
	})
	f := openFixture(t, root, t.TempDir())
	t.Cleanup(func() { f.ix.Close() })
	for _, p := range []string{"public/app.js", "public/site.css"} {
		if c := classOfPath(t, f.ix, p); c.Has(corpus.Asset) {
			t.Errorf("%s is %v in a JavaScript project, want no asset", p, c)
		}
	}
}

// A Go library's command-line tool prints the library's words in its
// help and its labels: it ranks below the library unless the question
// asks about a command.
func TestSearchToolBesideALibrary(t *testing.T) {
	t.Parallel()
	f := openNamed(t, "rank_tools.txtar", "tilestore")
	const tool, lib = "cmd/tilestore/main.go", "cache.go"
	if c := classOfPath(t, f.ix, tool); !c.Has(corpus.Tool) {
		t.Errorf("%s is %v, want a tool", tool, c)
	}
	q := "how are least recently used tiles dropped"
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != lib {
		t.Errorf("Search(%q) files = %v, want %s first", q, files, lib)
	}
	asked := "which command prints the cached tiles"
	if files := firstFiles(search(t, f.ix, asked)); len(files) == 0 || files[0] != tool {
		t.Errorf("Search(%q) files = %v, want %s first (asked for)", asked, files, tool)
	}
	f.ix.rank.ToolFactor = 1
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != tool {
		t.Errorf("ToolFactor 1: files = %v, want %s first (the fixture's premise)", files, tool)
	}
}

// Where the root holds no Go package of its own at the top (GOROOT's
// src/, a repository of commands), or only package main, its commands
// are its product.
func TestCommandsOfANonLibraryAreCode(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]map[string]string{
		"no package at the top": {
			"cmd/vet/main.go":     "package main\n\nfunc main() {}\n",
			"fmt/print.go":        "package fmt\n\nfunc Println() {}\n",
			"internal/cli/cli.go": "package cli\n\nfunc Run() {}\n",
		},
		"package main at the top": {
			"main.go":             "package main\n\nfunc main() {}\n",
			"cmd/serve/serve.go":  "package serve\n\nfunc Serve() {}\n",
			"internal/cli/cli.go": "package cli\n\nfunc Run() {}\n",
		},
	} {
		f := openFixture(t, fx.Tree(t, files), t.TempDir())
		t.Cleanup(func() { f.ix.Close() })
		for p := range files {
			if c := classOfPath(t, f.ix, p); c.Has(corpus.Tool) {
				t.Errorf("%s: %s is %v, want no tool", name, p, c)
			}
		}
	}
}

// An edit that changes no file's language and adds none keeps the
// root's traits of the generation before it: they are not measured
// again at the first search after every keystroke. A new file measures
// them again.
func TestAnEditKeepsTheRootsTraits(t *testing.T) {
	t.Parallel()
	f := openNamed(t, "rank_tools.txtar", "tilestore")
	ctx := context.Background()
	search(t, f.ix, "how are least recently used tiles dropped") // measures the traits
	if _, ok := f.ix.Snapshot().st.traits.Load(""); !ok {
		t.Fatal("the search measured no traits: the test proves nothing")
	}
	gen := f.ix.Update("cmd/tilestore/main.go", []byte("package main\n\nfunc main() {}\n"))
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.ix.Snapshot().st.traits.Load(""); !ok {
		t.Error("an edit inside cmd/ lost the root's traits")
	}
	gen = f.ix.Update("lib.go", []byte("package tilestore\n\nfunc Lib() {}\n"))
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.ix.Snapshot().st.traits.Load(""); ok {
		t.Error("a new Go file at the root's top kept the traits measured before it")
	}
}
