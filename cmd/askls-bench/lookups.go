package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// runLookups writes two question sets of identifier lookups over a Go
// tree, drawn from its own declarations (no one writes them, so no one
// tunes to them): the names of functions and methods, and the names of
// struct fields, each of two parts or more (a capital after a lower-case
// letter), 8 bytes or longer and declared once in the tree; the expected
// location is the declaration's line. askls-bench eval scores them like
// any set (docs/benchmarks.md, "Identifier lookups").
func runLookups(args []string) error {
	flags := flag.NewFlagSet("lookups", flag.ContinueOnError)
	root := flags.String("root", "", "the Go tree, e.g. \"$(go env GOROOT)/src\" (required)")
	out := flags.String("out", ".", "the folder the sets are written to (funcs.jsonl, fields.jsonl)")
	n := flags.Int("n", 300, "questions per set")
	seed := flags.Uint64("seed", 7, "the draw's seed")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *root == "" {
		return usageError("lookups: --root is required")
	}
	funcs, fields, err := declaredNames(*root)
	if err != nil {
		return err
	}
	for name, decls := range map[string][]lookupDecl{"funcs.jsonl": funcs, "fields.jsonl": fields} {
		if err := writeLookups(filepath.Join(*out, name), strings.TrimSuffix(name, ".jsonl"), once(decls), *n, *seed); err != nil {
			return err
		}
	}
	return nil
}

// lookupDecl is where a name is declared.
type lookupDecl struct {
	name, path string
	line       int
}

// declaredNames parses every Go file of root but tests, testdata,
// vendor, cmd and internal folders, and returns the multi-part names of
// its functions and struct fields.
func declaredNames(root string) (funcs, fields []lookupDecl, err error) {
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && p != root && (d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "cmd" || d.Name() == "internal"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		f, perr := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if perr != nil {
			return nil // a file the parser refuses is left out
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				funcs = appendName(funcs, n.Name, rel, fset)
			case *ast.StructType:
				for _, fl := range n.Fields.List {
					for _, id := range fl.Names {
						fields = appendName(fields, id, rel, fset)
					}
				}
			}
			return true
		})
		return nil
	})
	return funcs, fields, err
}

// appendName appends id's declaration when its name is a lookup's.
func appendName(to []lookupDecl, id *ast.Ident, path string, fset *token.FileSet) []lookupDecl {
	if len(id.Name) < 8 || !isMultiPartName(id.Name) {
		return to
	}
	return append(to, lookupDecl{id.Name, path, fset.Position(id.Pos()).Line})
}

// isMultiPartName: a capital after a lower-case letter (maxTokenSize).
func isMultiPartName(s string) bool {
	for i := 1; i < len(s); i++ {
		if 'a' <= s[i-1] && s[i-1] <= 'z' && 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// once keeps the names declared once, in a stable order.
func once(decls []lookupDecl) []lookupDecl {
	count := map[string]int{}
	for _, d := range decls {
		count[d.name]++
	}
	var out []lookupDecl
	for _, d := range decls {
		if count[d.name] == 1 {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].name < out[j].path+out[j].name })
	return out
}

// writeLookups draws n of decls with seed and writes them as a set.
func writeLookups(path, prefix string, decls []lookupDecl, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(decls), func(i, j int) { decls[i], decls[j] = decls[j], decls[i] })
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("lookups: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i, d := range decls[:min(n, len(decls))] {
		q := map[string]any{"id": fmt.Sprintf("%s-%03d", prefix, i), "category": "lookup", "question": d.name,
			"expected": []map[string]any{{"path": d.path, "start": d.line, "end": d.line}}}
		if err := enc.Encode(q); err != nil {
			f.Close()
			return fmt.Errorf("lookups: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("lookups: %w", err)
	}
	return f.Close()
}
