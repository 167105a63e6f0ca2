// Package answerdoc is the language server's documents for people: an
// answer, a thread, the list of threads as markdown with "[n]
// path:line:col" citation lines (for clients that open a document but
// cannot render a result: Helix), and the folder of one server where they
// are written for window/showDocument, removed when the server stops;
// folders a killed server left are removed by the next one.
//
// It knows no LSP type: the server hands it citations with their path and
// 1-based line and column already worked out.
//
// Concurrency: a *Folder is safe for concurrent use; the functions are
// pure.
package answerdoc
