package tools

import "github.com/askls/askls/corpus"

// IsTestPath: a test file by the conventions of the common languages
// (corpus.Classify), as index.Filter.NoTests leaves them out.
func IsTestPath(p string) bool { return corpus.Classify(p).Has(corpus.Test) }

// NotCode: documentation and prose, generated files and declaration
// files (.d.ts, .pyi) that only restate code found elsewhere
// (corpus.Classify).
func NotCode(p string) bool {
	return corpus.Classify(p)&(corpus.Prose|corpus.Generated|corpus.Decl) != 0
}
