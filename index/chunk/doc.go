// Package chunk cuts a file into the units the index searches and lists
// its symbols: Go through go/parser (golang.go), the other languages
// through line-based outlines (outline.go and outline_<language>.go: the
// declaration rules of each language, and the end of a block by braces,
// indentation or an "end" keyword), anything else into line windows. It
// owns the chunk sizes, the merging of small units and the cutting of long
// ones, the line index every part of the index counts lines with (Lines),
// and a file's language by its name (Language).
//
// It may import the standard library and corpus (a test unit of a file
// that is not a test is not merged with code: corpus.TestUnit); it knows
// nothing of the store, the walk or the façade (index), which call File on
// the content they read. Symbol is the struct the façade's index.Symbol converts from.
//
// Concurrency: everything here is a pure function of its arguments (the
// outliners' tables are built at init and only read); call it from any
// number of goroutines.
package chunk
