// Package archdoc holds tests over the docs. docs/architecture.md: its
// table of the parts names every package of the module, and each row's
// imports (the askls packages that the package's non-test files import on
// Linux, macOS or Windows) are the package's own, as `go list` gives them;
// a row may name several packages, its imports are then theirs together.
// README.md and docs/*.md: every relative link names a file that exists,
// and every #fragment a heading of its page. docs/testing.md: it names
// every fuzz target, the race detector's packages and every .ci/test.d
// script that .ci/test runs.
//
// It has no code the commands link: go test ./internal/archdoc runs the
// checks.
package archdoc
