package funclen

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"testing"
)

// allowedComplexity are the functions over MaxComplexity, by package
// folder and name, with the most each may have, while they are being
// split (each is to be split into functions of at most MaxComplexity,
// and its entry removed, by whoever owns its file); when one is at or
// under MaxComplexity the test asks for its line here to go.
var allowedComplexity = map[string]int{
	// To be split by the owners of these files (issue 28); remove each
	// entry when its function is at or under MaxComplexity.
	"citations (*Rewriter).step": 36,
}

// TestFunctionComplexity fails on a production function whose
// cyclomatic complexity is over MaxComplexity and that the allow-list
// does not name (or that grew past its listed complexity), and on an
// allow-list entry that is no longer needed.
func TestFunctionComplexity(t *testing.T) {
	root := moduleRoot(t)
	complexity := map[string]int{}
	err := eachFunc(root, func(key string, _ *token.FileSet, fd *ast.FuncDecl) {
		complexity[key] = cyclomatic(fd)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(complexity) < 100 {
		t.Fatalf("found only %d functions under %s: is this the module root?", len(complexity), root)
	}
	var bad []string
	for key, n := range complexity {
		limit, ok := allowedComplexity[key]
		switch {
		case n > MaxComplexity && !ok:
			bad = append(bad, fmt.Sprintf("%s: cyclomatic complexity %d (at most %d): split it into functions a person can hold in mind", key, n, MaxComplexity))
		case ok && n > limit:
			bad = append(bad, fmt.Sprintf("%s: cyclomatic complexity %d, grown past the %d of its allow-list entry: split it rather", key, n, limit))
		}
	}
	for key := range allowedComplexity {
		if n, ok := complexity[key]; !ok || n <= MaxComplexity {
			bad = append(bad, fmt.Sprintf("%s: now %d (0: gone): remove its allowedComplexity entry in internal/funclen", key, n))
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// cyclomatic is the cyclomatic complexity of fd as gocyclo counts it: 1,
// plus 1 for each if, for and range, each case of a switch or select but
// the default, and each && and ||, function literals inside included.
func cyclomatic(fd *ast.FuncDecl) int {
	n := 1
	ast.Inspect(fd, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			n++
		case *ast.CaseClause:
			if x.List != nil {
				n++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				n++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// TestCyclomatic pins the count on a function of known complexity.
func TestCyclomatic(t *testing.T) {
	src := `package p
func f(a, b bool, xs []int) int {
	if a && b || !a {
		return 1
	}
	for _, x := range xs {
		switch {
		case x > 1:
		case x < 0:
		default:
		}
	}
	for i := 0; i < 3; i++ {
	}
	g := func() bool { return a || b }
	_ = g
	return 0
}`
	fd := parseFunc(t, src)
	// 1 + if + && + || + range + 2 cases + for + || in the literal.
	if got := cyclomatic(fd); got != 9 {
		t.Errorf("cyclomatic = %d, want 9", got)
	}
}
