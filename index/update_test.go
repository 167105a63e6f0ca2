package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigGoFile has n functions of 45 lines each (one chunk each); function i
// mentions word(i).
func bigGoFile(header string, n int, word func(i int) string) string {
	var b strings.Builder
	b.WriteString(header + "package big\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "// F%d does step %d.\nfunc F%d() {\n", i, i, i)
		for l := 0; l < 42; l++ {
			fmt.Fprintf(&b, "\tprintln(%q, %d)\n", word(i), l)
		}
		b.WriteString("}\n\n")
	}
	return b.String()
}

func lineOf(src, needle string) int {
	return strings.Count(src[:strings.Index(src, needle)], "\n") + 1
}

// An edit re-sends only the chunks whose text changed; the others keep
// their documents, and their hits carry the lines of the new content.
func TestEditReindexesChangedChunksOnly(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	word := func(i int) string { return "zqalpha" + string(rune('a'+i)) }
	v1 := bigGoFile("", 6, word)
	f.ix.WaitFor(ctx, f.ix.Update("big/big.go", []byte(v1)))
	e1 := f.ix.Snapshot().st.files["big/big.go"]
	if e1 == nil || len(e1.Chunks()) < 6 || len(e1.DocHashes()) != len(e1.Chunks()) {
		t.Fatalf("entry after the first update: %+v", e1)
	}

	// One line more at the top, and function 3 changed.
	v2 := bigGoFile("// a new first line\n", 6, func(i int) string {
		if i == 3 {
			return "zqbetad"
		}
		return word(i)
	})
	f.ix.WaitFor(ctx, f.ix.Update("big/big.go", []byte(v2)))
	e2 := f.ix.Snapshot().st.files["big/big.go"]
	same := sameDocs(f.ix.roots[0], "big/big.go", e1, e2)
	changed := 0
	for _, s := range same {
		if !s {
			changed++
		}
	}
	if changed != 2 { // the top of the file and F3
		t.Errorf("%d of %d chunks changed, want 2 (the top and F3)", changed, len(same))
	}

	find := func(q string) (Hit, bool) {
		for _, h := range search(t, f.ix, q) {
			if h.Path == "big/big.go" {
				return h, true
			}
		}
		return Hit{}, false
	}
	if h, ok := find("zqbetad"); !ok || h.Start > lineOf(v2, "zqbetad") || h.End < lineOf(v2, "zqbetad") {
		t.Errorf("zqbetad: %+v, %v; want a hit around line %d", h, ok, lineOf(v2, "zqbetad"))
	}
	if h, ok := find("zqalphad"); ok {
		t.Errorf("the old text of F3 is still found: %+v", h)
	}
	// An unchanged chunk: its lines moved down by one.
	if h, ok := find("zqalphae"); !ok || h.Start > lineOf(v2, "zqalphae") || h.End < lineOf(v2, "zqalphae") || !strings.Contains(h.Excerpt, "zqalphae") {
		t.Errorf("zqalphae: %+v, %v; want a hit around line %d", h, ok, lineOf(v2, "zqalphae"))
	}
	// Fewer functions: the chunks past the end are gone.
	v3 := bigGoFile("// a new first line\n", 2, word)
	f.ix.WaitFor(ctx, f.ix.Update("big/big.go", []byte(v3)))
	if h, ok := find("zqalphaf"); ok {
		t.Errorf("a removed function is still found: %+v", h)
	}
	if _, ok := find("zqalphab"); !ok {
		t.Errorf("an unchanged function is not found after the file shrank")
	}
}

// Saving a buffer whose edits are indexed (or closing it unchanged) keeps
// the entry's chunks: nothing is chunked again, and it is still found.
func TestSaveOfAnIndexedBufferKeepsItsChunks(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	src := bigGoFile("", 3, func(i int) string { return "zqsaved" + string(rune('a'+i)) })
	f.ix.WaitFor(ctx, f.ix.Update("big/saved.go", []byte(src)))
	before := f.ix.Snapshot().st.files["big/saved.go"]
	if err := os.MkdirAll(filepath.Join(f.root, "big"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.root, "big/saved.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f.ix.WaitFor(ctx, f.ix.Changed("big/saved.go"))
	f.ix.WaitFor(ctx, f.ix.Release("big/saved.go"))
	after := f.ix.Snapshot().st.files["big/saved.go"]
	if after == nil || after == before || &after.Chunks()[0] != &before.Chunks()[0] {
		t.Fatalf("the saved file was chunked again (or lost): %p %p", before, after)
	}
	if after.MTime == 0 || after.Size != int64(len(src)) {
		t.Errorf("size/mtime not taken from the disk: %d %d", after.Size, after.MTime)
	}
	found := false
	for _, h := range search(t, f.ix, "zqsavedb") {
		found = found || (h.Path == "big/saved.go" && strings.Contains(h.Excerpt, "zqsavedb"))
	}
	if !found {
		t.Errorf("the saved file is no longer found")
	}
	// A real change on disk is indexed again.
	edited := strings.ReplaceAll(src, "zqsavedb", "zqchangedb")
	os.WriteFile(filepath.Join(f.root, "big/saved.go"), []byte(edited), 0o644)
	f.ix.WaitFor(ctx, f.ix.Changed("big/saved.go"))
	found = false
	for _, h := range search(t, f.ix, "zqchangedb") {
		found = found || h.Path == "big/saved.go"
	}
	if !found {
		t.Errorf("a change on disk after the save is not indexed")
	}
}
