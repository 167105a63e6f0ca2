package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// countedPass is what Stats counted before the sums: one pass over the
// published file map.
func countedPass(ix *Index) (chunks, symbols int) {
	ix.mu.Lock()
	st := ix.cur
	ix.mu.Unlock()
	for _, e := range st.files {
		chunks += e.ChunkCount()
		symbols += e.SymbolCount()
	}
	return chunks, symbols
}

// TestStatsSumsAgreeWithAPass: the chunks and symbols Stats reports from
// the sums Open counted, handed on by a sync that changed nothing (with
// the symbol table it started from), are those of a pass over the file
// map; after a sync that changed files (no sums kept), too; symbols are
// found after each.
func TestStatsSumsAgreeWithAPass(t *testing.T) {
	root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
	f := openFixture(t, root, cache)
	f.ix.Close()
	f = openFixture(t, root, cache) // a warm start: nothing changed
	defer f.ix.Close()
	check := func(when string, wantSums bool) {
		t.Helper()
		st := f.ix.Stats()
		chunks, symbols := countedPass(f.ix)
		if st.Chunks != chunks || st.Symbols != symbols || chunks == 0 || symbols == 0 {
			t.Errorf("%s: Stats says %d chunks, %d symbols; a pass counts %d, %d", when, st.Chunks, st.Symbols, chunks, symbols)
		}
		f.ix.mu.Lock()
		sums := f.ix.cur.sums
		f.ix.mu.Unlock()
		if (sums != nil) != wantSums {
			t.Errorf("%s: sums %+v, want them kept: %v", when, sums, wantSums)
		}
		if findSymbol(f.ix, "TotalPrice") == "" {
			t.Errorf("%s: TotalPrice not found", when)
		}
	}
	if f.stats.Indexed != 0 {
		t.Fatalf("the warm start indexed %d files", f.stats.Indexed)
	}
	check("warm start", true)
	if err := os.WriteFile(filepath.Join(root, "extra.go"), []byte("package extra\n\n// Extra is new.\nfunc Extra() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("a file added", false)
	if findSymbol(f.ix, "Extra") == "" {
		t.Errorf("the added file's symbol not found")
	}
	if _, err := f.ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	check("a sync that changed nothing after one that did", false)
}
