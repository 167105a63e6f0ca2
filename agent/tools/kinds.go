package tools

import "github.com/askls/askls/corpus"

// IsTestPath: a test file by the conventions of the common languages
// (corpus.Classify), as index.Filter.NoTests leaves them out.
func IsTestPath(p string) bool { return corpus.Classify(p).Has(corpus.Test) }

// notCodeClasses are the classes of files that are not the code that
// answers: documentation and prose, generated files and declaration
// files (.d.ts, .pyi) that only restate code found elsewhere.
const notCodeClasses = corpus.Prose | corpus.Generated | corpus.Decl

// NotCode: a file that is not code (notCodeClasses) by its name alone
// (corpus.Classify), for a file no index holds.
func NotCode(p string) bool { return corpus.Classify(p)&notCodeClasses != 0 }

// NotCodeIn: a file that is not code (notCodeClasses) by the class the
// index gives it (Source.Class: the search's own, which also knows a
// file's language, a generated marker and a built copy beside its
// sources: gprof's gprof.texi is prose by its language), else by its
// name (NotCode).
func NotCodeIn(src Source, p string) bool {
	if c, ok := src.Class(p); ok {
		return c&notCodeClasses != 0
	}
	return NotCode(p)
}
