// Package rootflag owns the workspace flags that the askls and askls-bench
// commands share (--root, --cache, the walk's budgets, --allow-broad-root)
// and their index.Options, so that their names, help and defaults are
// written once. A Flags is filled by flag parsing and then only read; it
// is not shared between goroutines.
package rootflag
