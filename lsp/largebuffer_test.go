package lsp

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/index"
)

// TestKeystrokeInLargeBufferCopiesLittle: the server's whole handling of
// a keystroke in an open 50 MB buffer (over the size limit, so the index
// holds none of it) copies a few chunks, not the buffer: the edit, the
// hand-over to the index and a request after it. Counted in bytes
// allocated, not timed: each keystroke used to copy the buffer (8 of them
// allocated 420 MB); the bound is half of one copy for all of them. The
// edits land where they were typed, and the buffer back under the limit
// is searchable again.
func TestKeystrokeInLargeBufferCopiesLittle(t *testing.T) {
	e, srv := captureServer(t, editorSetup{})
	e.waitIndexed()
	line := "// filler line of a large generated file, 64 bytes or so.....\n"
	e.open("big.go", strings.Repeat(line, (50<<20)/len(line)))
	e.sync()
	const keystrokes = 8
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keystrokes {
		at := protocol.Position{Line: uint32(700_000 - 1000*i), Character: 3}
		e.change("big.go", 2+i, protocol.Range{Start: at, End: at}, "x")
		e.sync()
	}
	runtime.ReadMemStats(&after)
	size := (50 << 20) / len(line) * len(line)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d keystrokes allocated %d KB", keystrokes, alloc>>10)
	if alloc > uint64(size/2) {
		t.Errorf("%d keystrokes in a %d MB buffer allocated %d MB", keystrokes, size>>20, alloc>>20)
	}
	d, _ := srv.docs.get(canonURI(e.uri("big.go")))
	for i := range keystrokes {
		off, _ := d.text.OffsetOf(protocol.Position{Line: uint32(700_000 - 1000*i)})
		if got := string(d.text.Bytes()[off : off+6]); got != "// xfi" {
			t.Errorf("line %d starts %q", 700_000-1000*i, got)
		}
	}
	ix := srv.ws.Current()
	if err := ix.WaitFor(context.Background(), srv.ws.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Snapshot().Content("big.go"); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("the index read out a buffer over its size limit: %v", err)
	}
	small := "package big\n\n// Small is back under the limit.\n"
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.uri("big.go"), "version": 100},
		"contentChanges": []map[string]any{{"text": small}},
	})
	e.sync()
	if err := ix.WaitFor(context.Background(), srv.ws.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if c, err := ix.Snapshot().Content("big.go"); err != nil || string(c) != small {
		t.Errorf("the buffer back under the limit: %q %v", c, err)
	}
}
