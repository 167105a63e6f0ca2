// Package index owns the searchable picture of a workspace. It is a
// façade over rooms of its own; the rest of askls imports only this
// package and sees Open, Index (Sync, Update, Release, Changed, WaitFor,
// Snapshot) and Snapshot (Search, Grep, Read, Content, Files, Symbols,
// Outline).
//
// The rooms, each with a doc.go saying what it owns and may import:
//
//   - index/walk: which files of a root may enter (the walk and its
//     budget, ignore rules, vendored and special folders, binaries, path
//     globs) and the one bounded read every workspace file goes through.
//   - index/secret: secret names, the private-key test, the masking of
//     credentials in any text and in log lines.
//   - index/chunk: cutting a file into units and listing its symbols (Go
//     through go/parser, the other languages through line-based outlines),
//     a file's language, the line index.
//   - index/store: the code analyzer, the bleve mapping and fields,
//     opening, checking and settling bleve, the manifest and its codec, the
//     crash journal, the symbols file, the symbol table, and the choice at
//     open between a persisted index and a rebuild.
//
// Imports point one way: the façade imports the rooms; store imports
// chunk; walk imports secret; no room imports the façade. Only the façade
// and index/store import bleve (internal/benchkit builds the lab's plain
// baseline).
//
// What the façade keeps, by file: api.go (the contract), index.go (Open,
// roots, cache folders and their locks, Close, Stats), tempindex.go
// (temporary indexes), sync.go (Sync's stages: walk, read and chunk, batch,
// finish), writer.go (Update, Release, Changed, WaitFor, the writer
// goroutine), document.go (a chunk's bleve document and its hash),
// snapshot.go (Read, Content, Grep, Files), overlay.go (open buffers
// searched directly), symbols.go (Symbols and Outline, over
// store.SymbolTable), symnamed.go (SymbolsNamed: every symbol of one exact
// name), wordfiles.go (FilesWithWord), damage.go (CheckStore,
// searches guarded against a damaged store), files.go (ListFiles and IsTest
// for other tools), readfile.go and readspan_*.go (a chunk's bytes for the
// rerank), redact.go (Redact and RedactHandler for other packages),
// process.go (TuneProcessSearch); and search: search.go, query.go,
// ranking.go, rerank.go, proximity.go, phrase.go, vocab.go, feedback.go,
// delegate.go, spans.go, field.go (the ranking stages that read chunk text
// or the store; docs/ranking.md).
//
// Concurrency: an *Index is safe for concurrent use. The stem cache and
// the term counters behind codeField are shared by all goroutines (locked,
// pooled). Update, Release and Changed never block on indexing. A
// *Snapshot is immutable and may be read from any number of goroutines;
// readers never block the writer. The writer goroutine alone writes to
// bleve, the manifest, the journal and the symbols file; the symbol
// table's file (store/symtab_file.go) is written by the goroutine that
// builds the table, under the table's own lock.
//
// Crash safety: before each bleve batch the writer appends the batch's
// paths to a journal; the manifest is saved (atomically) only after bleve
// has persisted everything, and then the journal is emptied; the symbols
// file is only appended to before the manifest naming its new blocks is
// saved, and a block that fails its check is computed again from its
// file; the symbol table's file is replaced by a rename, and one that
// fails its checks is built again. On Open, the files in the journal are
// purged from bleve and indexed again; a missing or unreadable manifest,
// or a journal of more than 2,000 files, means a rebuild from scratch
// (store.Load). Each case is logged.
package index
