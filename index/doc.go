// Package index owns the searchable picture of a workspace. It is a
// façade over rooms of its own; the rest of askls imports only this
// package and sees Open, Index (Sync, Update, Release, Changed, WaitFor,
// Snapshot) and Snapshot (Search, Grep, Read, Content, Files, Symbols,
// Outline, Class).
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
//   - index/store: the code analyzer, the bleve mapping, a chunk's
//     document and its fields (document.go, field.go), opening, checking
//     and settling bleve, the manifest and its codec, the crash journal,
//     the symbols file, the symbol table, and the choice at open between
//     a persisted index and a rebuild.
//
// Imports point one way: the façade imports the rooms and rank; store
// imports chunk; walk imports secret; no room imports the façade, and
// rank imports neither the façade nor store. Only the façade and
// index/store import bleve (internal/benchkit builds the lab's plain
// baseline).
//
// What the façade keeps, by file: api.go (the contract), index.go (Open,
// roots, cache folders and their locks, Close, Stats), tempindex.go
// (temporary indexes), sync.go (Sync's stages: walk, read and chunk, batch,
// finish), prewalk.go (the first sync's walk, started by Open beside the
// manifests: Options.WalkAtOpen), writer.go (Update, Release, Changed, WaitFor, the writer
// goroutine; writer_spare.go: the copy of the files table the next edit
// changes, made after an edit is published), snapshot.go (Read, Content, Grep, Files, a file's class), roles.go (what a file is to its root: a web asset of a project in another language, a Go library's command-line tool),
// overlay.go (open buffers searched directly), symbols.go (Symbols and
// Outline, over store.SymbolTable), symnamed.go (SymbolsNamed: every
// symbol of one exact name), wordfiles.go (FilesWithWord), damage.go (CheckStore,
// searches guarded against a damaged store), files.go (ListFiles and IsTest
// for other tools), readfile.go and readspan_*.go (a chunk's bytes for the
// rerank), spancache.go (the chunk texts searches read, kept for later
// searches after a check of the file), redact.go (Redact and
// RedactHandler for other packages), process.go (TuneProcessSearch); and
// search, whose ranking stages are
// package rank's (docs/ranking.md): search.go (the bleve query of a
// rank.Plan, the candidates and their priors, the stages run in order),
// disjunction.go and disjunction_prune.go (how the query's clauses are
// searched: bleve's scores, fewer postings read),
// spans.go (reading chunk texts, excerpts, the index's idf for feedback;
// idfcache.go keeps it per bleve snapshot),
// page.go (the page of hits, narrowed, with the units a wrapper calls),
// ranking.go (Ranking: rank.Params).
//
// Concurrency: an *Index is safe for concurrent use. The stem cache,
// the term counters behind store's fields, the chunk texts searches
// read (spancache.go) and the feedback terms' idf (idfcache.go) are
// shared by all goroutines (locked, pooled).
// Update, Release and Changed never block on indexing. A *Snapshot is
// immutable and may be read from any number of goroutines;
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
