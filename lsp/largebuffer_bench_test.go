package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// BenchmarkKeystrokeInLargeBuffer: one character typed into an open
// 50 MB buffer (over the 1 MiB size limit), sent as an incremental
// didChange and followed by a request, so that each op is the server's
// whole handling of one keystroke. The index holds none of such a buffer
// (TestOversizedBufferIsNotCopied) and the server copies the chunks the
// edit touches (lsp/buffer; TestKeystrokeInLargeBufferCopiesLittle counts
// the bytes).
//
//	go test -run '^$' -bench KeystrokeInLargeBuffer -benchtime 40x -benchmem ./lsp/
func BenchmarkKeystrokeInLargeBuffer(b *testing.B) {
	e := startEditorAt(b, writeFixture(b, "workspace.txtar"), editorSetup{})
	e.waitIndexed()
	line := "// filler line of a large generated file, 64 bytes or so.....\n"
	e.open("big.go", strings.Repeat(line, (50<<20)/len(line)))
	e.sync()
	version := 1
	for b.Loop() {
		version++
		at := protocol.Position{Line: uint32(100 + version%1000), Character: 3}
		e.change("big.go", version, protocol.Range{Start: at, End: at}, "x")
		e.sync()
	}
}
