// Package archdoc holds a test over docs/architecture.md: its table of the
// parts names every package of the module, and each row's imports (the
// askls packages that the package's non-test files import on Linux, macOS
// or Windows) are the package's own, as `go list` gives them. A row may
// name several packages; its imports are then theirs together.
//
// It has no code the commands link: go test ./internal/archdoc runs the
// check.
package archdoc
