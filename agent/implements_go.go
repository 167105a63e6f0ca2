package agent

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// symbolsNamed is every symbol named exactly name.
func symbolsNamed(src source, name string) []index.Symbol {
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
func goImplementations(ctx context.Context, src source, tb *toolbox, def index.Symbol, tests bool) (Implementations, error) {
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
		for _, s := range symbolsNamed(src, m.name) {
			if s.Kind != "method" || !strings.HasPrefix(s.Signature, "func (") || (!tests && isTestPath(s.Path)) {
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
func typeDeclaration(src source, tb *toolbox, dir string, m index.Symbol) Implementation {
	at := m
	for _, s := range symbolsNamed(src, m.Container) {
		if path.Dir(s.Path) == dir && s.Container == "" && (s.Kind == "struct" || s.Kind == "type" || s.Kind == "interface") {
			at = s
			break
		}
	}
	im := Implementation{Reference: Reference{Path: at.Path, Line: at.Line}, Type: m.Container}
	if f, err := tb.file(at.Path); err == nil {
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
func goMethodSet(src source, tb *toolbox, def index.Symbol, seen map[string]bool) (ms []goMethod, generic bool, note string) {
	key := def.Path + ":" + def.Name
	if seen[key] {
		return nil, false, ""
	}
	seen[key] = true
	f, err := tb.file(def.Path)
	if err != nil {
		return nil, false, ""
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, def.Path, f.Content(), parser.SkipObjectResolution)
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
func embeddedInterface(src source, def index.Symbol, e ast.Expr) (index.Symbol, string) {
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
	for _, s := range symbolsNamed(src, name) {
		dir := path.Dir(s.Path)
		if s.Container != "" || isTestPath(s.Path) || (pkg == "" && dir != path.Dir(def.Path)) || (pkg != "" && path.Base(dir) != pkg) {
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

// maxEmbedFiles caps the files the second level of the search for
// embedding structs reads, and half those of the first (common names
// like Reader are words of thousands of files); past it the count is a
// floor.
const maxEmbedFiles = 300

// embedTarget is a type whose embedders implement the interface: the
// interface itself, or a type that implements it.
type embedTarget struct {
	name, dir string
	via       string // the implementing type it stands for ("" for the interface itself)
}

// goEmbedders adds the struct types that embed the interface, or a type
// that implements it, as a field of their own (their method sets hold
// its methods), and those that embed them in turn (2 levels). The files
// a level reads are capped (maxEmbedFiles): the interface's own
// embedders first, then those of its folder's types, then the types
// whose names are in the fewest files; each type's own folder first.
func goEmbedders(ctx context.Context, src source, tb *toolbox, out *Implementations, tests bool) error {
	seen := map[string]bool{}
	for _, t := range out.Types {
		seen[path.Dir(t.Path)+"\x00"+t.Type] = true
	}
	home := path.Dir(out.Of.Path)
	level := []embedTarget{{name: out.Of.Name, dir: home}}
	for _, t := range out.Types {
		level = append(level, embedTarget{name: t.Type, dir: path.Dir(t.Path), via: t.Type})
	}
	dirs := map[string][]string{} // the files of each folder, filled on first use
	for depth := 0; depth < 2 && len(level) > 0; depth++ {
		budget := maxEmbedFiles << (1 - depth) // the first level, the interface's own embedders among them, twice
		byFile, capped, err := embedCandidates(ctx, src, level, home, tests, &budget, dirs)
		if err != nil {
			return err
		}
		out.Capped = out.Capped || capped
		paths := slices.Sorted(maps.Keys(byFile))
		found, err := scanFiles(ctx, src, tb, paths, func(p string, content []byte) []Implementation {
			return embeddingFields(src, p, content, byFile[p])
		})
		if err != nil {
			return err
		}
		var next []embedTarget
		for _, f := range found {
			for _, im := range f.sites {
				key := path.Dir(im.Path) + "\x00" + im.Type
				if seen[key] {
					continue
				}
				seen[key] = true
				out.Types = append(out.Types, im)
				next = append(next, embedTarget{name: im.Type, dir: path.Dir(im.Path), via: im.Via})
			}
		}
		level = next
	}
	return nil
}

// embedCandidates are the Go files that may embed the targets, with the
// targets each may embed, within *budget files (spent as they are
// taken); capped when some were left out.
func embedCandidates(ctx context.Context, src source, targets []embedTarget, home string, tests bool, budget *int, dirs map[string][]string) (map[string][]embedTarget, bool, error) {
	type cand struct {
		t     embedTarget
		paths []string
	}
	var cs []cand
	for _, t := range targets {
		var paths []string
		var err error
		if isExported(t.name) {
			paths, _, err = candidateFiles(ctx, src, t.name)
		} else {
			// Only its own package can name an unexported type.
			paths, err = filesIn(src, t.dir, dirs)
		}
		if err != nil {
			return nil, false, err
		}
		paths = slices.DeleteFunc(paths, func(p string) bool { return !strings.HasSuffix(p, ".go") || (!tests && isTestPath(p)) })
		cs = append(cs, cand{t, paths})
	}
	rank := func(c cand) int {
		switch {
		case c.t.via == "":
			return 0
		case c.t.dir == home:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return len(a.paths) - len(b.paths)
	})
	byFile := map[string][]embedTarget{}
	capped := false
	for _, c := range cs {
		// A type's own folder first: its embedders are most often there.
		slices.SortStableFunc(c.paths, func(a, b string) int {
			return boolRank(path.Dir(a) != c.t.dir) - boolRank(path.Dir(b) != c.t.dir)
		})
		for _, p := range c.paths {
			if _, ok := byFile[p]; !ok {
				if *budget == 0 {
					capped = true
					break
				}
				*budget--
			}
			byFile[p] = append(byFile[p], c.t)
		}
	}
	return byFile, capped, nil
}

// embeddingFields finds in one Go file the structs with a field that
// embeds one of targets: a field line that is only the type (T, *T, or
// pkg.T outside its folder), inside a struct's declaration.
func embeddingFields(src source, p string, content []byte, targets []embedTarget) []Implementation {
	want := map[string]embedTarget{}
	for _, t := range targets {
		w := t.name
		if path.Dir(p) != t.dir {
			w = path.Base(t.dir) + "." + t.name
		}
		want[w] = t
	}
	var structs []index.Symbol
	var out []Implementation
	var lines []string
	for w := range want {
		if bytes.Contains(content, []byte(w)) {
			lines = strings.Split(string(content), "\n")
			break
		}
	}
	for i, text := range lines {
		field := strings.TrimSpace(text)
		if j := strings.Index(field, "//"); j >= 0 {
			field = strings.TrimSpace(field[:j])
		}
		if j := strings.IndexByte(field, '`'); j >= 0 {
			field = strings.TrimSpace(field[:j]) // a tag
		}
		t, ok := want[strings.TrimPrefix(field, "*")]
		if !ok {
			continue
		}
		if structs == nil {
			syms, err := src.Outline(p)
			if err != nil {
				return nil
			}
			structs = slices.DeleteFunc(syms, func(s index.Symbol) bool { return s.Kind != "struct" || s.Container != "" })
		}
		for _, s := range structs {
			if s.Line < i+1 && i+1 < s.EndLine && s.Line <= len(lines) {
				decl := strings.TrimRight(lines[s.Line-1], "\r")
				out = append(out, Implementation{Reference: Reference{Path: p, Line: s.Line, Col: max(0, wordIndex(decl, s.Name)), Text: decl}, Type: s.Name, Via: t.via})
			}
		}
	}
	return out
}

// filesIn are the files of folder dir; dirs holds every folder's, read
// from src once.
func filesIn(src source, dir string, dirs map[string][]string) ([]string, error) {
	if len(dirs) == 0 {
		all, err := src.Files("")
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			dirs[path.Dir(p)] = append(dirs[path.Dir(p)], p)
		}
	}
	return slices.Clone(dirs[dir]), nil
}

// isExported: a Go name other packages may use.
func isExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// boolRank is 1 for true, 0 for false.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
