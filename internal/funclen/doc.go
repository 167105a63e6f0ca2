// Package funclen holds a test over the module's source: no production
// function (outside _test.go files, testdata and the editors' fixtures) is
// longer than MaxLines, except the few in its allow-list, each at most as
// long as it is listed. A long function is split into named stages that
// own their data; the allow-list only shrinks.
//
// It has no code the commands link: go test ./internal/funclen runs the
// check (bash .ci/test runs it with the other packages).
package funclen

// MaxLines is the most lines a production function may span, from its
// func keyword to its closing brace (its doc comment not counted).
const MaxLines = 100
