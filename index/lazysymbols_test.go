package index

import (
	"context"
	"reflect"
	"testing"
)

// TestOutlinesAskedAtOnceAgree: after a restart a file's symbols are
// decoded from the symbols file at their first use; goroutines asking
// for them at once all get them (one decode is kept; run with -race).
func TestOutlinesAskedAtOnceAgree(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 5, "o", 1)
	cache := t.TempDir()
	f := openFixture(t, root, cache)
	want, err := f.ix.Snapshot().Outline("pkg01/f0001.go")
	f.ix.Close()
	if err != nil || len(want) == 0 {
		t.Fatalf("outline before the restart: %v, %v", want, err)
	}
	// SymbolsOnDemand: no background build of the symbol table, which
	// would decode the symbols before the goroutines below ask for them.
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: cache, SymbolsOnDemand: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap := ix.Snapshot()
	if e := snap.st.files["pkg01/f0001.go"]; e == nil || !e.SymbolsInFile() || e.SymbolsKept() {
		t.Fatalf("after the restart the symbols are not waiting in the symbols file: %+v", e)
	}
	got := make([][]Symbol, 8)
	done := make(chan struct{})
	for i := range got {
		go func() {
			got[i], _ = snap.Outline("pkg01/f0001.go")
			done <- struct{}{}
		}()
	}
	for range got {
		<-done
	}
	for i, g := range got {
		if !reflect.DeepEqual(g, want) {
			t.Errorf("goroutine %d: %+v, want %+v", i, g, want)
		}
	}
}
