// Package rank holds the stages of askls's ranking that do not touch the
// store: the priors of a file's class, and the breakdown of a score into
// what each stage contributed (askls search --explain).
//
// index retrieves candidates with bleve (BM25 over the chunk's text, its
// symbol names and its path) and runs the stages in order: candidates,
// priors, exact identifiers, coverage and proximity, feedback, files.
// docs/ranking.md states the model, its formulas and constants.
//
// Everything here is a pure function or a value; a Breakdown belongs to
// one candidate of one search and is not shared between goroutines.
package rank
