package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/askls/askls/index/chunk"
	"golang.org/x/tools/txtar"
)

// entryOf is the entry of a file as the index makes it: its language and
// its symbols.
func entryOf(path string, content []byte) *Entry {
	lang := chunk.Language(path)
	e := &Entry{Size: int64(len(content)), Lang: lang}
	_, syms := chunk.File(path, lang, content)
	e.SetSymbols(syms)
	return e
}

// fixtureFiles are the entries of the index's workspace fixture.
func fixtureFiles(t *testing.T) map[string]*Entry {
	t.Helper()
	ar, err := txtar.ParseFile("../testdata/workspace.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*Entry{}
	for _, f := range ar.Files {
		files[f.Name] = entryOf(f.Name, f.Data)
	}
	return files
}

// checkLookup compares the table's lookups with a scan of every symbol,
// and Named, for every name of the files, with the scan's exact matches.
func checkLookup(t *testing.T, tab SymbolTable, files map[string]*Entry, when string) {
	t.Helper()
	for _, e := range files {
		for _, s := range e.Symbols() {
			var want []chunk.Symbol
			for _, m := range ScanSymbols(files, s.Name, 1<<30) {
				if m.Name == s.Name {
					want = append(want, m)
				}
			}
			if got := tab.Named(s.Name, files); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Named(%q) =\n%+v\nthe scan gives\n%+v", when, s.Name, got, want)
			}
		}
	}
	for _, q := range []string{"Cart", "cart", "c", "t", "Total", "price", "Cart.Checkout", "shipping", "Gen", "gen", "Sym7", "ym", "nothing-like-it", "e"} {
		for _, limit := range []int{1, 3, 50} {
			got, want := tab.Lookup(q, limit, files), ScanSymbols(files, q, limit)
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Lookup(%q, %d) =\n%+v\nthe scan gives\n%+v", when, q, limit, got, want)
			}
		}
	}
}

// TestSymbolTableSharesItsBase: a generation's table shares the base of
// the one before and lists the files changed since; past MaxOver changed
// files it gets a base of its own; every table answers as a scan does.
func TestSymbolTableSharesItsBase(t *testing.T) {
	files := fixtureFiles(t)
	tab := NextSymbolTable(NewSymbolTable(nil), files, nil)
	checkLookup(t, tab, files, "first generation")
	if tab.Build(); tab.Count() == 0 {
		t.Fatal("empty symbol table")
	}

	edited := map[string]*Entry{}
	for p, e := range files {
		edited[p] = e
	}
	edited["cart/cart.go"] = entryOf("cart/cart.go", []byte("package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Gen7() {}\nfunc GenCart() {}\n"))
	edited["gen/new.go"] = entryOf("gen/new.go", []byte("package gen\n\nfunc Sym7Gen() {}\nvar cartel = 1\n"))
	next := NextSymbolTable(tab, edited, map[string]bool{"cart/cart.go": true, "gen/new.go": true})
	if next.bases[0] != tab.bases[0] || !next.over["cart/cart.go"] || !next.over["gen/new.go"] {
		t.Fatalf("an edit should list its file over the shared base: over=%v", next.over)
	}
	checkLookup(t, next, edited, "after edits")

	// Without the list of changes, the maps are compared with the base's.
	delete(edited, "gen/new.go")
	delete(edited, "shipping/rates.py")
	diffed := NextSymbolTable(next, edited, nil)
	if diffed.bases[0] != tab.bases[0] || !diffed.over["cart/cart.go"] || !diffed.over["shipping/rates.py"] || diffed.over["gen/new.go"] {
		t.Fatalf("the files that differ from the base's should be listed over it: over=%v", diffed.over)
	}
	checkLookup(t, diffed, edited, "after a deletion")

	changed := map[string]bool{}
	for i := 0; i <= MaxOver; i++ {
		p := fmt.Sprintf("gen/f%d.go", i)
		edited[p] = entryOf(p, []byte(fmt.Sprintf("package gen\n\nfunc Gen%d() {}\ntype Sym%dCart int\n", i, i)))
		changed[p] = true
	}
	fresh := NextSymbolTable(diffed, edited, changed)
	if fresh.bases[0] == tab.bases[0] || len(fresh.over) != 0 {
		t.Fatalf("after %d changed files the table should have a new base (over: %d files)", MaxOver+1, len(fresh.over))
	}
	checkLookup(t, fresh, edited, "after a new base")
	n := 0
	for _, e := range edited {
		n += e.SymbolCount()
	}
	if fresh.Build(); fresh.Count() != n {
		t.Errorf("the table holds %d symbols, the entries %d", fresh.Count(), n)
	}
}
