// Package lsp is askls's language server and the only package that speaks
// LSP. It is a front end of workspace.Workspace, which owns the roots, the
// index, the open buffers the index reads, the threads and the ask; this
// package translates the protocol to it and back.
//
// It owns the connection lifecycle (initialize … exit), the ordered
// message queue with early release and cancellation, and the encoding of
// every reply with encoding/json (queue.go), text synchronisation and the
// documents as the client has them (textsync.go, documents.go; each an
// immutable chunked text with its line counts, lsp/buffer), citations'
// Locations with UTF-16 columns (position.go), the client's folders
// given to the workspace, with its indexing shown as work-done progress
// (workspace.go, progress.go), askls/ask and the askls.* commands
// (ask.go, commands.go, threads.go, status.go), the kept answers whose citations follow edits (answers.go;
// the newest keepCitations of them show citations, and
// askls.clearCitations hides them; where a citation is now is
// citations.Tracked's business), askls.locate for an editor's jump
// (citestate.go), code lenses and the Hint-diagnostics fallback (lens.go),
// workspace symbols (symbols.go) and references (references.go).
//
// Its rooms, each a package with a doc.go: lsp/buffer (an open
// document's bytes and its LSP positions: the chunked text, didChange's
// changes applied, byte offsets <-> UTF-16 positions), lsp/framing (the
// base protocol: Content-Length frames), lsp/clientlog (window/logMessage and
// the stderr tee), lsp/settings (what a client may set) and lsp/answerdoc
// (the markdown documents for people and the folder they are written to).
//
// Concurrency: Serve runs one connection. Messages are handled in order;
// a handler may release the queue early (askls/ask does once the workspace
// has noted its cursor and the last edit), after which it runs alongside
// later messages. Shared state is guarded: documents, answers and the
// workspace each have a mutex, and server.editMu makes an edit, its
// hand-over to the workspace and its anchor moves one step. Everything the
// package exports is safe for concurrent use.
package lsp
