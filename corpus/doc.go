// Package corpus is askls's one model of the files it searches: what kind
// of file a path is (code, a test, prose, generated, a declaration file,
// vendored or third-party code, packaging and build files, examples;
// build output beside its sources; a file that says a tool wrote it,
// IsGenerated; the folders of web assets and of command-line tools,
// whose files index makes assets or tools by what their root holds),
// which words of a question ask for each kind, and the name of the
// project a root holds.
//
// index ranks by the class (the priors stage, docs/ranking.md); agent
// asks the same functions when it chooses what to cite, so a file is a
// test, or prose, in one place only.
//
// Everything here is a pure function of its arguments and safe to use
// from any goroutine.
package corpus
