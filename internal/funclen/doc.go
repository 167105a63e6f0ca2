// Package funclen holds tests over the module's source: no production
// function (outside _test.go files, testdata and the editors' fixtures) is
// longer than MaxLines, or has a cyclomatic complexity over MaxComplexity
// (counted as gocyclo counts it, with go/ast), except the few in the
// allow-lists, each at most as long or as complex as it is listed. A long
// or tangled function is split into named stages that own their data; the
// allow-lists only shrink.
//
// It has no code the commands link: go test ./internal/funclen runs the
// checks (bash .ci/test runs it with the other packages).
package funclen

// MaxLines is the most lines a production function may span, from its
// func keyword to its closing brace (its doc comment not counted).
const MaxLines = 100

// MaxComplexity is the highest cyclomatic complexity a production
// function may have: 1, plus one for each if, for, range, non-default
// case, && and ||, the function literals inside it included.
const MaxComplexity = 25
