package index

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// chunkGo cuts a Go file along its declarations with go/parser: the top of
// the file (package clause and imports, with the package doc) is one chunk,
// each func, method, type and var/const group is a unit with its doc
// comment. A file that does not parse at all falls back to line windows.
func chunkGo(p string, content []byte, li lineIndex) ([]chunk, []Symbol) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, p, content, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil, nil
	}
	tf := fset.File(f.Pos())
	line := func(pos token.Pos) int {
		if !pos.IsValid() || int(pos) < tf.Base() || int(pos) > tf.Base()+tf.Size() {
			return 0
		}
		return tf.Line(pos)
	}
	offset := func(pos token.Pos) int { return int(pos) - tf.Base() }
	oneLine := func(from, to token.Pos) string {
		a, b := offset(from), offset(to)
		if a < 0 || b > len(content) || a >= b {
			return ""
		}
		s := strings.Join(strings.Fields(string(content[a:b])), " ")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return s
	}

	var units []chunk
	var syms []Symbol
	sym := func(name, container, kind string, at token.Pos, end int, sig string) {
		syms = append(syms, Symbol{Name: name, Container: container, Kind: kind, Path: p,
			Line: line(at), EndLine: end, Signature: sig, Language: "go"})
	}

	// Top of file: doc, package clause, imports.
	topEnd := line(f.Name.End())
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			if e := line(g.End()); e > topEnd {
				topEnd = e
			}
		}
	}
	top := chunk{Start: 1, End: topEnd, Symbol: "package " + f.Name.Name, Kind: "package"}
	units = addUnit(units, top, content, li)

	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			start := line(d.Pos())
			if d.Doc != nil {
				start = line(d.Doc.Pos())
			}
			end := line(d.End())
			sigEnd := d.End()
			if d.Body != nil {
				sigEnd = d.Body.Lbrace
			}
			sig := oneLine(d.Pos(), sigEnd)
			kind, container := "func", ""
			if d.Recv != nil && len(d.Recv.List) > 0 {
				kind, container = "method", recvName(d.Recv.List[0].Type)
			}
			sym(d.Name.Name, container, kind, d.Name.Pos(), end, sig)
			name := d.Name.Name
			if container != "" {
				name = container + "." + name
			}
			units = addUnit(units, chunk{Start: start, End: end, Symbol: d.Name.Name, Kind: kind,
				Names: []string{name}, NameLines: []int{0}, Header: sig}, content, li)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			if d.Tok == token.TYPE && d.Lparen.IsValid() && len(d.Specs) > 1 {
				for i, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					start := line(ts.Pos())
					if ts.Doc != nil {
						start = line(ts.Doc.Pos())
					} else if i == 0 && d.Doc != nil {
						start = line(d.Doc.Pos())
					}
					c := typeUnit(ts, start, line(ts.End()), sym, oneLine, line)
					units = addUnit(units, c, content, li)
				}
				continue
			}
			start := line(d.Pos())
			if d.Doc != nil {
				start = line(d.Doc.Pos())
			}
			end := line(d.End())
			if d.Tok == token.TYPE && len(d.Specs) == 1 {
				c := typeUnit(d.Specs[0].(*ast.TypeSpec), start, end, sym, oneLine, line)
				units = addUnit(units, c, content, li)
				continue
			}
			kind := "var"
			if d.Tok == token.CONST {
				kind = "const"
			}
			c := chunk{Start: start, End: end, Kind: kind}
			for _, s := range d.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for _, n := range vs.Names {
					if n.Name == "_" {
						continue
					}
					sym(n.Name, "", kind, n.Pos(), line(vs.End()), kind+" "+oneLine(vs.Pos(), vs.End()))
					c.Names = append(c.Names, n.Name)
					c.NameLines = append(c.NameLines, line(n.Pos()))
					if c.Symbol == "" {
						c.Symbol = n.Name
					}
				}
			}
			// The header of its continuation windows: the group's first
			// names (each window holds its own names).
			c.Header = kind + " " + strings.Join(c.Names[:min(len(c.Names), 3)], ", ")
			if len(c.Names) > 3 {
				c.Header += ", …"
			}
			units = addUnit(units, c, content, li)
		}
	}
	return fillGaps(mergeSmall(units), content, li), syms
}

// typeUnit makes the chunk of one type spec and records the type, its
// struct fields and interface methods as symbols.
func typeUnit(ts *ast.TypeSpec, start, end int,
	sym func(name, container, kind string, at token.Pos, end int, sig string),
	oneLine func(from, to token.Pos) string, line func(token.Pos) int) chunk {
	kind := "type"
	sigEnd := ts.End()
	switch t := ts.Type.(type) {
	case *ast.StructType:
		kind = "struct"
		sigEnd = t.Fields.Opening + 1
		for _, f := range t.Fields.List {
			for _, n := range f.Names {
				sym(n.Name, ts.Name.Name, "field", n.Pos(), line(f.End()), oneLine(f.Pos(), f.End()))
			}
		}
	case *ast.InterfaceType:
		kind = "interface"
		sigEnd = t.Methods.Opening + 1
		for _, f := range t.Methods.List {
			for _, n := range f.Names {
				sym(n.Name, ts.Name.Name, "method", n.Pos(), line(f.End()), oneLine(f.Pos(), f.End()))
			}
		}
	}
	sig := "type " + oneLine(ts.Pos(), sigEnd)
	sym(ts.Name.Name, "", kind, ts.Name.Pos(), end, sig)
	return chunk{Start: start, End: end, Symbol: ts.Name.Name, Kind: kind, Names: []string{ts.Name.Name}, NameLines: []int{0}, Header: sig}
}

// recvName is the type name of a method receiver: T, *T, T[K], *T[K].
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
