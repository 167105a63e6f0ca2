package index

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/store"
	"github.com/zeebo/blake3"
)

// referenceSymbols is the plain scan the table replaces: every symbol of
// the snapshot, ranked the same way.
func referenceSymbols(s *Snapshot, q string, limit int) []Symbol {
	return store.ScanSymbols(s.st.files, q, limit)
}

func checkSymbols(t *testing.T, ix *Index, when string) {
	t.Helper()
	snap := ix.Snapshot()
	for _, q := range []string{"Cart", "cart", "c", "t", "Total", "price", "Cart.Checkout", "ShippingCalculator.shipping_cost",
		"shipping", "Gen", "gen", "Sym7", "ym", "nothing-like-it", "e"} {
		for _, limit := range []int{1, 3, 50} {
			got, want := snap.Symbols(q, limit), referenceSymbols(snap, q, limit)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Symbols(%q, %d) =\n%+v\nthe plain scan gives\n%+v", when, q, limit, got, want)
			}
		}
		// SymbolsNamed: the scan's exact matches, all of them.
		var exact []Symbol
		for _, s := range referenceSymbols(snap, q, 1<<30) {
			if s.Name == q {
				exact = append(exact, s)
			}
		}
		if got := snap.SymbolsNamed(q); !reflect.DeepEqual(got, exact) && len(got)+len(exact) > 0 {
			t.Errorf("%s: SymbolsNamed(%q) =\n%+v\nthe plain scan gives\n%+v", when, q, got, exact)
		}
	}
}

// The table gives what a scan of every symbol gives: after the first sync,
// after edits (files listed over the shared base), after a deletion, and
// after so many changed files that a new base is built.
func TestSymbolTableMatchesAScan(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	checkSymbols(t, f.ix, "first sync")
	first := f.ix.Snapshot().st.tab
	if first.Build(); first.Count() == 0 {
		t.Fatal("empty symbol table")
	}

	f.ix.WaitFor(ctx, f.ix.Update("cart/cart.go", []byte("package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Gen7() {}\nfunc GenCart() {}\n")))
	f.ix.WaitFor(ctx, f.ix.Update("gen/new.go", []byte("package gen\n\nfunc Sym7Gen() {}\nvar cartel = 1\n")))
	checkSymbols(t, f.ix, "after edits")
	f.ix.WaitFor(ctx, f.ix.Release("gen/new.go"))
	checkSymbols(t, f.ix, "after a release")

	var gen uint64
	for i := 0; i <= store.MaxOver; i++ {
		gen = f.ix.Update(fmt.Sprintf("gen/f%d.go", i), []byte(fmt.Sprintf("package gen\n\nfunc Gen%d() {}\ntype Sym%dCart int\n", i, i)))
	}
	f.ix.WaitFor(ctx, gen)
	checkSymbols(t, f.ix, "after a new base")
	tab := f.ix.Snapshot().st.tab
	if tab.Build(); f.ix.Stats().Symbols != tab.Count() {
		t.Errorf("Stats().Symbols = %d, the table holds %d", f.ix.Stats().Symbols, tab.Count())
	}
}

// After a restart the symbols come from the manifest, decoded only when
// asked for: they are the same as before.
func TestSymbolsSurviveARestart(t *testing.T) {
	root, cache := writeTxtar(t, "workspace.txtar"), t.TempDir()
	f := openFixture(t, root, cache)
	before := f.ix.Snapshot().Symbols("c", 100)
	outline, err := f.ix.Snapshot().Outline("cart/cart.go")
	if err != nil || len(before) == 0 || len(outline) == 0 {
		t.Fatalf("no symbols: %v %v %v", before, outline, err)
	}
	n := f.ix.Stats().Symbols
	f.ix.Close()

	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Indexed != 0 {
		t.Fatalf("restart re-indexed %d files", f.stats.Indexed)
	}
	lazy := 0
	for _, e := range f.ix.Snapshot().st.files {
		if e.SymbolsInFile() {
			lazy++
		}
	}
	if lazy == 0 {
		t.Errorf("no file kept its symbols encoded after a restart")
	}
	if got := f.ix.Stats().Symbols; got != n {
		t.Errorf("Stats().Symbols after a restart = %d, before %d", got, n)
	}
	if got := f.ix.Snapshot().Symbols("c", 100); !reflect.DeepEqual(got, before) {
		t.Errorf("Symbols after a restart =\n%+v\nbefore\n%+v", got, before)
	}
	if got, _ := f.ix.Snapshot().Outline("cart/cart.go"); !reflect.DeepEqual(got, outline) {
		t.Errorf("Outline after a restart =\n%+v\nbefore\n%+v", got, outline)
	}
	checkSymbols(t, f.ix, "after a restart")
}

// TestOutlineOfAnOpenBuffer: an open buffer is outlined from its current
// content, whether that content is indexed yet (its entry's symbols) or
// not (chunked again); both give what chunking the content gives.
func TestOutlineOfAnOpenBuffer(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	const p = "cart/cart.go"
	orig, err := f.ix.Snapshot().Content(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := append(append([]byte{}, orig...), "\n// Discount lowers a price.\nfunc Discount(p int) int { return p - 1 }\n"...)
	_, syms := chunk.File(p, "go", edited)
	want := syms
	sort.SliceStable(want, func(i, j int) bool { return want[i].Line < want[j].Line })

	gen := f.ix.Update(p, edited)
	if err := f.ix.WaitFor(context.Background(), gen); err != nil {
		t.Fatal(err)
	}
	snap := f.ix.Snapshot()
	if e := snap.st.files[p]; e == nil || e.Hash != blake3.Sum256(edited) {
		t.Fatal("the edit is not indexed")
	}
	if got, err := snap.Outline(p); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Outline of the indexed buffer = %+v, %v\nwant %+v", got, err, want)
	}
	// The same snapshot with content the index has not seen.
	again := append(append([]byte{}, edited...), "\nfunc Later() {}\n"...)
	_, syms2 := chunk.File(p, "go", again)
	want2 := syms2
	sort.SliceStable(want2, func(i, j int) bool { return want2[i].Line < want2[j].Line })
	ahead := &Snapshot{ix: snap.ix, st: snap.st, overlay: map[string][]byte{p: again}}
	if got, err := ahead.Outline(p); err != nil || !reflect.DeepEqual(got, want2) || len(want2) != len(want)+1 {
		t.Errorf("Outline of a buffer ahead of the index = %+v, %v\nwant %+v", got, err, want2)
	}
}

// TestSymbolsPutTheDefinitionFirst: a name that is a type gives the
// type's definition first, before the impl blocks named after it (even
// from a path that sorts first) and before a constructor of that name.
func TestSymbolsPutTheDefinitionFirst(t *testing.T) {
	f := newFixture(t, "definitions.txtar")
	for q, want := range map[string]string{"Json": "struct b/types.rs", "Cache": "class cache/Cache.java"} {
		got := f.ix.Snapshot().Symbols(q, 10)
		if len(got) < 2 || got[0].Kind+" "+got[0].Path != want {
			t.Errorf("Symbols(%q) = %+v, want the %s first and more after", q, got, want)
		}
	}
	checkSymbols(t, f.ix, "definitions")
}
