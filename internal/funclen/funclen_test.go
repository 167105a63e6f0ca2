package funclen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// allowed are the functions over MaxLines, by package folder and name,
// with the most lines each may have, while they are being split; when one
// is under MaxLines the test asks for its line here to go. Empty: keep it
// so.
var allowed = map[string]int{}

// TestFunctionLength fails on a production function over MaxLines that
// the allow-list does not name (or that grew past its listed length), and
// on an allow-list entry that is no longer needed.
func TestFunctionLength(t *testing.T) {
	root := moduleRoot(t)
	lengths, err := functionLengths(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(lengths) < 100 {
		t.Fatalf("found only %d functions under %s: is this the module root?", len(lengths), root)
	}
	var long []string
	for key, n := range lengths {
		limit, ok := allowed[key]
		switch {
		case n > MaxLines && !ok:
			long = append(long, fmt.Sprintf("%s: %d lines (at most %d): split it into named stages", key, n, MaxLines))
		case ok && n > limit:
			long = append(long, fmt.Sprintf("%s: %d lines, grown past the %d of its allow-list entry: split it rather", key, n, limit))
		}
	}
	for key := range allowed {
		if n, ok := lengths[key]; !ok || n <= MaxLines {
			long = append(long, fmt.Sprintf("%s: now %d lines (0: gone): remove its allow-list entry in internal/funclen", key, n))
		}
	}
	sort.Strings(long)
	for _, l := range long {
		t.Error(l)
	}
}

// functionLengths maps "folder Name" (Name as (*T).m, T.m or f) of every
// function with a body in the non-test Go files under root to its lines.
func functionLengths(root string) (map[string]int, error) {
	out := map[string]int{}
	err := eachFunc(root, func(key string, fset *token.FileSet, fd *ast.FuncDecl) {
		out[key] = fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
	})
	return out, err
}

// eachFunc calls f with "folder Name" (Name as (*T).m, T.m or f) and the
// declaration of every function with a body in the non-test Go files
// under root (testdata, hidden folders, node_modules and the editors'
// fixtures left out).
func eachFunc(root string, f func(key string, fset *token.FileSet, fd *ast.FuncDecl)) error {
	fset := token.NewFileSet()
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "editors") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				f(filepath.ToSlash(dir)+" "+funcName(fd), fset, fd)
			}
		}
		return nil
	})
}

// parseFunc parses src, a file, and returns its first function.
func parseFunc(t *testing.T, src string) *ast.FuncDecl {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "src.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok {
			return fd
		}
	}
	t.Fatal("no function in src")
	return nil
}

// funcName is f, T.m or (*T).m.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		t, star = s.X, true
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	recv := fmt.Sprint(t)
	if star {
		return "(*" + recv + ")." + fd.Name.Name
	}
	return recv + "." + fd.Name.Name
}

// moduleRoot is the folder of the go.mod above the test's folder.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
