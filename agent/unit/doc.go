// Package unit weighs code against a question, for the answers that cite
// it: the question's terms (QuestionTerms: content words, an identifier
// whole and split, stems from package words), the units of a file (a
// symbol with its doc comment, from the outline: Outline, OfHit), which
// terms each line holds (FileTerms, tokenized on first use), and which
// lines of a unit to cite (ChooseSpan, the densest window holding the
// most of the weighted terms; Excerpt, the part of it an answer shows).
//
// It reads nothing itself: the caller hands it a file's lines
// (citations.LineIndex) and its symbols (index.Symbol).
//
// Concurrency: the functions are safe for concurrent use; a *FileTerms
// caches the lines it has tokenized and belongs to one goroutine.
package unit
