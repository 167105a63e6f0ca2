package tools

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/askls/askls/index"
)

// goMethod is a method an interface requires: its name and, when its
// signature could be read, its parameter and result types with package
// qualifiers left out ("Reader", not "io.Reader": an implementation in
// another package writes them qualified).
type goMethod struct {
	name            string
	params, results []string
	known           bool
}

// namedSymbols finds every symbol of one exact name (index.Snapshot
// does); a source without it is asked through Symbols.
type namedSymbols interface {
	SymbolsNamed(name string) []index.Symbol
}

// SymbolsNamed is every symbol named exactly name.
func SymbolsNamed(src Source, name string) []index.Symbol {
	if ns, ok := src.(namedSymbols); ok {
		return ns.SymbolsNamed(name)
	}
	var out []index.Symbol
	for _, s := range src.Symbols(name, 5000) {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// goImplementations lists the types whose methods cover def's method set
// (embedded interfaces included): each method of the set declared with
// a receiver of the type, in the type's folder, with the same parameter
// and result types (qualifiers aside; for a generic interface the same
// numbers of them). Methods promoted from an embedded field are not
// seen.
func goImplementations(ctx context.Context, src Source, tb *Box, def index.Symbol, tests bool) (Implementations, error) {
	out := Implementations{Name: def.Name, Of: def}
	ms, generic, note := goMethodSet(src, tb, def, map[string]bool{})
	switch {
	case note != "":
		out.Note = note
		return out, nil
	case len(ms) == 0:
		out.Note = "an empty interface: every type implements it"
		return out, nil
	}
	// The types declaring each method, by folder and receiver type.
	has := make([]map[string]index.Symbol, len(ms))
	for i, m := range ms {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		has[i] = map[string]index.Symbol{}
		for _, s := range SymbolsNamed(src, m.name) {
			if s.Kind != "method" || !strings.HasPrefix(s.Signature, "func (") || (!tests && IsTestPath(s.Path)) {
				continue
			}
			if got, ok := methodOf(s.Signature, m.name); ok && m.known && !sameSignature(m, got, generic) {
				continue
			}
			has[i][path.Dir(s.Path)+"\x00"+s.Container] = s
		}
	}
	rarest := 0
	for i := range has {
		if len(has[i]) < len(has[rarest]) {
			rarest = i
		}
	}
	files := map[string]bool{}
	for key, first := range has[rarest] {
		all := true
		for i := range has {
			if _, ok := has[i][key]; !ok {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		im := typeDeclaration(src, tb, path.Dir(first.Path), first)
		out.Types = append(out.Types, im)
		files[im.Path] = true
	}
	if err := goEmbedders(ctx, src, tb, &out, tests); err != nil {
		return out, err
	}
	for _, t := range out.Types {
		files[t.Path] = true
	}
	sortImplementations(out.Types, path.Dir(def.Path))
	if len(out.Types) > maxImplementations {
		out.Types, out.Capped = out.Types[:maxImplementations], true
	}
	out.Files = len(files)
	return out, nil
}

// typeDeclaration is where the receiver type of method m is declared in
// dir (else m itself), as an implementation.
func typeDeclaration(src Source, tb *Box, dir string, m index.Symbol) Implementation {
	at := m
	for _, s := range SymbolsNamed(src, m.Container) {
		if path.Dir(s.Path) == dir && s.Container == "" && (s.Kind == "struct" || s.Kind == "type" || s.Kind == "interface") {
			at = s
			break
		}
	}
	im := Implementation{Reference: Reference{Path: at.Path, Line: at.Line}, Type: m.Container}
	if f, err := tb.File(at.Path); err == nil {
		text, _ := f.Lines(at.Line, at.Line)
		im.Text = strings.TrimRight(text, "\r\n")
		im.Col = max(0, wordIndex(im.Text, m.Container))
	}
	return im
}

// goMethodSet is the methods the Go interface def requires, its embedded
// interfaces' included (error's Error; others found by name in their
// folder, or in the folder named like their package). generic: def has
// type parameters. note says why no type implements it by its methods (a
// constraint with a type set).
func goMethodSet(src Source, tb *Box, def index.Symbol, seen map[string]bool) (ms []goMethod, generic bool, note string) {
	key := def.Path + ":" + def.Name
	if seen[key] {
		return nil, false, ""
	}
	seen[key] = true
	f, err := tb.File(def.Path)
	if err != nil {
		return nil, false, ""
	}
	fset := token.NewFileSet()
	// A file with syntax errors still gives a partial tree: the interface
	// may be in the part that parsed, so the error itself is not fatal.
	file, _ := parser.ParseFile(fset, def.Path, f.Content(), parser.SkipObjectResolution)
	if file == nil {
		return nil, false, ""
	}
	var it *ast.InterfaceType
	ast.Inspect(file, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == def.Name && fset.Position(ts.Name.Pos()).Line == def.Line {
			it, _ = ts.Type.(*ast.InterfaceType)
			generic = ts.TypeParams != nil && len(ts.TypeParams.List) > 0
			return false
		}
		return it == nil
	})
	if it == nil {
		return nil, false, ""
	}
	for _, fld := range it.Methods.List {
		if ft, ok := fld.Type.(*ast.FuncType); ok {
			for _, n := range fld.Names {
				m := goMethod{name: n.Name, known: true}
				m.params, m.results = fieldTypes(ft.Params), fieldTypes(ft.Results)
				ms = append(ms, m)
			}
			continue
		}
		emb, n := embeddedInterface(src, def, fld.Type)
		switch {
		case n != "":
			return nil, generic, n
		case emb.Name == "error":
			ms = append(ms, goMethod{name: "Error", results: []string{"string"}, known: true})
		case emb.Path != "":
			sub, _, subNote := goMethodSet(src, tb, emb, seen)
			if subNote != "" {
				return nil, generic, subNote
			}
			ms = append(ms, sub...)
		}
	}
	return ms, generic, ""
}

// embeddedInterface resolves an embedded element of an interface: the
// interface it names, error (Name "error", no Path), nothing (any, or
// one not found), or a note when the element is a type set.
func embeddedInterface(src Source, def index.Symbol, e ast.Expr) (index.Symbol, string) {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if ix, ok := e.(*ast.IndexListExpr); ok {
		e = ix.X
	}
	const constraint = "a type constraint: its type set, not methods, says which types satisfy it"
	name, pkg := "", ""
	switch t := e.(type) {
	case *ast.Ident:
		name = t.Name
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			name, pkg = t.Sel.Name, x.Name
		}
	default:
		return index.Symbol{}, constraint // ~int, int | string
	}
	switch {
	case pkg == "" && name == "error":
		return index.Symbol{Name: "error"}, ""
	case pkg == "" && (name == "any" || name == "comparable"):
		return index.Symbol{}, ""
	case pkg == "" && types.Universe.Lookup(name) != nil:
		return index.Symbol{}, constraint // int, string…
	}
	var best index.Symbol
	for _, s := range SymbolsNamed(src, name) {
		dir := path.Dir(s.Path)
		if s.Container != "" || IsTestPath(s.Path) || (pkg == "" && dir != path.Dir(def.Path)) || (pkg != "" && path.Base(dir) != pkg) {
			continue
		}
		if s.Kind != "interface" {
			return index.Symbol{}, constraint // a named non-interface type in a type set
		}
		if best.Path == "" || len(s.Path) < len(best.Path) {
			best = s
		}
	}
	return best, ""
}

// qualifierRE is a package qualifier in a printed type ("io." of io.Reader).
var qualifierRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\.`)

// fieldTypes are the types of a parameter or result list, one per value
// ("a, b int" is two), printed without package qualifiers.
func fieldTypes(fl *ast.FieldList) []string {
	if fl == nil {
		return nil
	}
	var out []string
	for _, f := range fl.List {
		t := qualifierRE.ReplaceAllString(types.ExprString(f.Type), "")
		t = strings.ReplaceAll(t, "interface{}", "any")
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

// methodOf reads the parameter and result types of a method from its
// one-line signature ("func (f *File) Read(b []byte) (n int, err
// error)"); ok is false when the line cannot be read (cut, or odd).
func methodOf(sig, name string) (goMethod, bool) {
	i := strings.Index(sig, ") "+name+"(")
	if i < 0 || strings.HasSuffix(sig, "…") {
		return goMethod{}, false
	}
	x, err := parser.ParseExpr("func" + sig[i+2+len(name):])
	ft, ok := x.(*ast.FuncType)
	if err != nil || !ok {
		return goMethod{}, false
	}
	return goMethod{name: name, params: fieldTypes(ft.Params), results: fieldTypes(ft.Results), known: true}, true
}

// sameSignature: a method with got's types implements want; for a
// generic interface only the numbers of parameters and results count.
func sameSignature(want, got goMethod, generic bool) bool {
	if generic {
		return len(want.params) == len(got.params) && len(want.results) == len(got.results)
	}
	return slices.Equal(want.params, got.params) && slices.Equal(want.results, got.results)
}
