// Package index owns the searchable picture of a workspace: walking the
// roots (ignore rules, binary, size and secret filters), chunking files into
// symbol-aware units, the bleve index (the only importer of bleve), the
// blake3 manifest that makes restarts incremental, the symbol table, and the
// single writer goroutine that applies updates and publishes generations.
//
// Concurrency: an *Index is safe for concurrent use. Update, Release and
// Changed never block on indexing. A *Snapshot is immutable and may be read
// from any number of goroutines; readers never block the writer.
package index
