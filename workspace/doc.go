// Package workspace owns a set of roots for every front end (the language
// server, the MCP server, the command line, the lab): opening their index,
// its first sync (in the background with Start, in the caller with Open),
// a file watcher where no editor reports changes (Options.Watch), the open
// buffers the index reads instead of the disk (SetBuffer, SetBufferText
// for a front end's Text, joined only within the size limit, CloseBuffer),
// the snapshots questions are answered from, the threads of the roots
// (Threads, FindThread), and the ask: a question with its cursor
// (Prepare, in order with the edits sent before it), then the agent or
// retrieval mode over a snapshot, its checked citations, the workspace's
// notice and the thread's next turn (Ask.Run).
//
// It also owns the conversion between file URIs and paths (URIPath,
// FileURI, CanonURI), with the Windows rules tested on every OS, and the
// cache folder, resolved once in New for the index and the threads.
//
// It knows no protocol: front ends translate LSP, MCP or a command line
// to it and back. It reads no environment variable: the commands pass
// what the environment says as Options.
//
// Files: workspace.go (Options, Hooks, the state, Index, Synced, Notice,
// Status, as plain JSON for askls.status, Close), open.go (Start,
// StartOnce, Open, OpenIndex, the open and first sync), buffers.go (the
// open buffers; Changed, noted in LastEdit like an edit), watch.go (the
// file watcher), ask.go (Prepare, Run), locate.go (a file by a name a
// person gives), ident.go (the identifier at a cursor), threads.go,
// threadnow.go (a thread's citations where the code is now), uri.go.
//
// Concurrency: a *Workspace is safe for concurrent use. Hooks are called
// from the goroutine doing the work (a Start's own, or Open's caller). An
// *Ask belongs to one goroutine. Buffer changes and the publishing of a
// new index are ordered by one lock, so no edit is lost when the roots
// change.
package workspace
