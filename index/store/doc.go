// Package store owns what the index keeps on disk for a root, and the bleve
// side of it: the code analyzer (analysis.go: words.Scan and words.Stem as
// bleve's tokens) and the fields and mapping of a chunk's document
// (store.go; document.go: a chunk's document, its hash, whether a unit
// is test code; field.go: the fields, counting their terms once), opening, checking and settling a bleve index (verify.go:
// segment checksums, the damaged mark; merge.go: the merges of a first
// build, BuildMerger and Settle; the Persister that waits for batches to
// reach the disk), the manifest (manifest.go, manifest_table.go,
// manifest_codec.go: an Entry per file, a table of fixed-width records
// before the chunk blocks, with a checksum, computed once after each
// write (manifest_checked.go), mapped read-only where the platform
// allows, chunks kept encoded in the mapping until used, the decoded
// entries advised onto huge pages: hugepages_linux.go), the crash journal, the symbols file beside the
// manifest (symbols.go), the symbol table (symtab.go: one base per root,
// sorted names and small records, shared between generations;
// symtab_build.go: its build from the files' symbols, interning their
// strings in arenas (symtab_intern.go); symtab_lookup.go: a
// lookup by name, prefix and substring; symnamed.go: every symbol of one
// name) and its file in the cache folder (symtab_file.go: written when a
// base is built, read instead of a build, checked by a CRC and a hash per
// file; mapfile_unix.go: mapped read-only where the platform allows,
// unmapped when its base is collected), and the decision, at open, between trusting a persisted index and
// rebuilding it (Load).
//
// With the façade (index), it is the only package that imports bleve
// (go list -deps ./index/chunk ./index/walk ./index/secret shows none).
// It may import index/chunk (an Entry holds chunk metadata and symbols,
// and a symbols block that fails its check is computed again from the
// file), corpus (a test file's symbol ranks after the others) and words
// (the terms of a text), and nothing else of askls.
//
// Concurrency: an Entry is immutable once a published generation holds
// it (its lazily decoded chunks and symbols are decoded at first use and
// kept through an atomic pointer: two first uses at once may both
// decode, one result is kept); a SymWriter, the journal and a Manifest being saved belong
// to the index's writer goroutine; the stem cache behind the analyzer is
// locked and the analyzer itself is safe for concurrent use; a Persister
// is safe for concurrent use, and so is a BuildMerger. A SymbolTable is immutable and safe for
// concurrent use; each base is made ready once (sync.Once), on the first
// lookup or by BuildAsync, by reading its file or building it, and the
// goroutine that builds it writes the file (a mutex shared by the index's
// tables orders the writes; Close stops them).
package store
