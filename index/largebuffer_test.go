package index

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestOversizedBufferIsNotCopied: an open buffer over the size limit is
// never read out, so Update keeps none of it: a keystroke in a 50 MB
// buffer allocates a small part of one copy, where each used to copy the
// buffer whole (and the writer hashed the copy): 60 ms and 541 MB for a
// 50 MB buffer in the language server. The work is counted (bytes
// allocated), not timed. The buffer is refused as before, search goes on,
// and a buffer back under the limit is held, masked, as any other.
func TestOversizedBufferIsNotCopied(t *testing.T) {
	f := newFixture(t, "workspace.txtar")
	ctx := context.Background()
	const edits = 8
	big := []byte(strings.Repeat("// filler line of a large generated file\n", (50<<20)/42))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var gen uint64
	for i := range edits {
		big[100+i] = 'x' // the editor's keystroke: the same buffer, changed
		gen = f.ix.Update("big.go", big)
	}
	if err := f.ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(big)/2) {
		t.Errorf("%d edits of a %d MB buffer allocated %d MB", edits, len(big)>>20, alloc>>20)
	}
	snap := f.ix.Snapshot()
	if _, err := snap.Content("big.go"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a buffer over the size limit was read out: %v", err)
	}
	if ms, _ := snap.Grep(ctx, "filler line", "", 10); len(ms) != 0 {
		t.Errorf("grep read the oversized buffer: %+v", ms)
	}
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 {
		t.Error("search found nothing beside an oversized buffer")
	}
	small := "package big\n\n// Small is back under the limit.\nconst K = \"AKIAIOSFODNN7EXAMPLE\"\n"
	f.ix.WaitFor(ctx, f.ix.Update("big.go", []byte(small)))
	c, err := f.ix.Snapshot().Content("big.go")
	if err != nil || len(c) != len(small) || strings.Contains(string(c), "IOSFODNN7EXAMPLE") || !strings.Contains(string(c), "Small is back") {
		t.Errorf("the buffer back under the limit: %q %v", c, err)
	}
	if hits := search(t, f.ix, "Small is back under the limit"); len(hits) == 0 || hits[0].Path != "big.go" {
		t.Errorf("the buffer back under the limit is not searchable: %+v", hits)
	}
}
