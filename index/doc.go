// Package index owns the searchable picture of a workspace: walking the
// roots (ignore rules, binary, size and secret filters), chunking files into
// symbol-aware units, the bleve index (the product's only importer of
// bleve; internal/benchkit builds the lab's plain baseline), the blake3
// manifest that makes restarts incremental, the symbol table, and the
// single writer goroutine that applies updates and publishes generations.
//
// Files: api.go (the contract), index.go (Open, roots, Close, Stats),
// sync.go (Sync: walk, hash, chunk, write), writer.go (Update, Release,
// Changed, WaitFor, the writer goroutine), walk.go, ignore.go, secret.go,
// secretrules.go (secret names and the content detector's rules; secret.go
// masks), redactlog.go (log lines masked), lang.go (what enters the index),
// chunk.go, chunk_go.go, outline.go (chunks and symbols), analysis.go (the
// code-aware tokenizer), field.go (documents' fields, counting terms
// without token streams), store.go (mapping, documents, persistence,
// settling a first build's merges), feedback.go (pseudo-relevance
// feedback),
// manifest.go, manifest_codec.go (manifest and journal; chunks kept
// encoded until used), symbols_file.go (each file's symbols, in a file of
// their own beside the manifest, read when asked for), symtab.go (the
// symbol table behind Symbols and Outline; symnamed.go: SymbolsNamed,
// every symbol of one exact name), sync.go (a sync's stages),
// snapshot.go, search.go (reading,
// ranking, the coverage rerank), readspan_*.go (chunk text for the rerank),
// files.go (ListFiles and IsTest: the index's file rules for other tools).
//
// Concurrency: an *Index is safe for concurrent use. The stem cache and
// the term counters behind codeField are shared by all goroutines (locked,
// pooled). Update, Release and
// Changed never block on indexing. A *Snapshot is immutable and may be read
// from any number of goroutines; readers never block the writer.
//
// Crash safety: before each bleve batch the writer appends the batch's
// paths to a journal; the manifest is saved (atomically) only after bleve
// has persisted everything, and then the journal is emptied; the symbols
// file is only appended to before the manifest naming its new blocks is
// saved, and a block that fails its check is computed again from its
// file. On Open, the
// files in the journal are purged from bleve and indexed again; a missing
// or unreadable manifest, or a journal of more than 2,000 files, means a
// rebuild from scratch. Each case is logged.
package index
