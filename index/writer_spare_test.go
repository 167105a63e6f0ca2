package index

import (
	"context"
	"reflect"
	"testing"

	"github.com/askls/askls/index/store"
)

func sameMap(a, b map[string]*store.Entry) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// The spare is a copy of the current generation's files that the next
// edit may change without touching what snapshots hold; it is used once,
// and only for the generation it copies.
func TestSpareFilesCopyTheCurrentGenerationOnce(t *testing.T) {
	a, b := &store.Entry{Size: 1}, &store.Entry{Size: 2}
	cur := &state{gen: 1, files: map[string]*store.Entry{"a.go": a}}
	ix := &Index{cur: cur}

	ix.makeSpare()
	got := ix.filesToChange(cur)
	if sameMap(got, cur.files) || len(got) != 1 || got["a.go"] != a {
		t.Fatalf("filesToChange = %v, want a copy of %v", got, cur.files)
	}
	got["b.go"] = b
	if _, ok := cur.files["b.go"]; ok {
		t.Fatal("changing the spare changed the published generation's files")
	}
	if ix.spare.files != nil {
		t.Fatal("the spare is still held after its use")
	}

	// A spare of another generation is not used: the copy is of cur's.
	next := &state{gen: 2, files: map[string]*store.Entry{"b.go": b}}
	ix.makeSpare() // copies cur
	ix.cur = next
	got = ix.filesToChange(next)
	if sameMap(got, next.files) || len(got) != 1 || got["b.go"] != b {
		t.Fatalf("filesToChange(next) = %v, want a copy of %v", got, next.files)
	}

	// makeSpare keeps a spare that already copies cur; dropSpare forgets it.
	ix.makeSpare()
	first := ix.spare.files
	ix.makeSpare()
	if !sameMap(first, ix.spare.files) {
		t.Fatal("makeSpare copied the same generation again")
	}
	ix.dropSpare()
	if ix.spare.files != nil || ix.spare.from != nil {
		t.Fatal("dropSpare kept the spare")
	}
}

// Edits one after another, a Sync between them: each is searchable, and a
// snapshot taken before an edit keeps the entry it had.
func TestEditsAfterSpareKeepOlderSnapshots(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	words := []string{"zqsparefirst", "zqsparesecond", "zqsparethird", "zqsparefourth"}
	var snaps []*Snapshot
	for i, w := range words {
		if i == 2 {
			if _, err := f.ix.Sync(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.ix.WaitFor(ctx, f.ix.Update("cart/cart.go", []byte("package cart\n\n// "+w+"\nfunc F() {}\n"))); err != nil {
			t.Fatal(err)
		}
		if hits := search(t, f.ix, w); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
			t.Fatalf("edit %d: search %q = %v", i, w, hits)
		}
		snaps = append(snaps, f.ix.Snapshot())
	}
	for i, s := range snaps {
		for j, later := range snaps[i+1:] {
			if s.st.files["cart/cart.go"] == later.st.files["cart/cart.go"] {
				t.Errorf("snapshots %d and %d hold the same entry for an edited file", i, i+1+j)
			}
		}
	}
	for i, s := range snaps {
		if got := s.st.files["cart/cart.go"].Size; got != int64(len("package cart\n\n// "+words[i]+"\nfunc F() {}\n")) {
			t.Errorf("snapshot %d: size %d, changed by a later edit", i, got)
		}
	}
}
