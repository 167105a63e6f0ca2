// Package text is askls's one model of the text it searches: what kind
// of file a path is (code, a test, prose, generated, a declaration file,
// vendored or third-party code, packaging and build files, examples),
// and which words of a question ask for each kind.
//
// index classifies every file with Classify when it indexes it and ranks
// by the class (docs/ranking.md, "Priors"); agent asks the same functions
// when it chooses what to cite, so a file is a test, or prose, in one
// place only.
//
// Everything here is a pure function of its arguments and safe to use
// from any goroutine.
package text
