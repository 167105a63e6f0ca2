package chunk

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
func chunkGo(p string, content []byte, li Lines) ([]Chunk, []Symbol) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, p, content, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil, nil
	}
	g := &goChunker{path: p, content: content, li: li, tf: fset.File(f.Pos())}
	g.top(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			g.funcDecl(d)
		case *ast.GenDecl:
			g.genDecl(d)
		}
	}
	return fillGaps(mergeSmall(g.units, "go"), content, li), g.syms
}

// goChunker holds one Go file while chunkGo cuts it: the units and symbols
// found so far, in file order.
type goChunker struct {
	path    string
	content []byte
	li      Lines
	tf      *token.File
	units   []Chunk
	syms    []Symbol
}

// line is the 1-based line of pos, 0 when pos is not in this file.
func (g *goChunker) line(pos token.Pos) int {
	tf := g.tf
	if !pos.IsValid() || int(pos) < tf.Base() || int(pos) > tf.Base()+tf.Size() {
		return 0
	}
	return tf.Line(pos)
}

// oneLine is the source from..to with white space folded, at most 200 bytes
// (then "…"); "" when the range is not in the file.
func (g *goChunker) oneLine(from, to token.Pos) string {
	a, b := int(from)-g.tf.Base(), int(to)-g.tf.Base()
	if a < 0 || b > len(g.content) || a >= b {
		return ""
	}
	s := strings.Join(strings.Fields(string(g.content[a:b])), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func (g *goChunker) sym(name, container, kind string, at token.Pos, end int, sig string) {
	g.syms = append(g.syms, Symbol{Name: name, Container: container, Kind: kind, Path: g.path,
		Line: g.line(at), EndLine: end, Signature: sig, Language: "go"})
}

func (g *goChunker) add(c Chunk) { g.units = addUnit(g.units, c, g.content, g.li) }

// start is the first line of a declaration at pos with its doc comment.
func (g *goChunker) start(pos token.Pos, doc *ast.CommentGroup) int {
	if doc != nil {
		return g.line(doc.Pos())
	}
	return g.line(pos)
}

// top is the chunk of the package clause and the imports.
func (g *goChunker) top(f *ast.File) {
	topEnd := g.line(f.Name.End())
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			topEnd = max(topEnd, g.line(gd.End()))
		}
	}
	g.add(Chunk{Start: 1, End: topEnd, Symbol: "package " + f.Name.Name, Kind: "package"})
}

// funcDecl is the unit of a func or method, named Recv.Name for a method.
func (g *goChunker) funcDecl(d *ast.FuncDecl) {
	end := g.line(d.End())
	sigEnd := d.End()
	if d.Body != nil {
		sigEnd = d.Body.Lbrace
	}
	sig := g.oneLine(d.Pos(), sigEnd)
	s := Symbol{Name: d.Name.Name, Kind: "func"}
	if d.Recv != nil && len(d.Recv.List) > 0 {
		s.Kind, s.Container = "method", recvName(d.Recv.List[0].Type)
	}
	g.sym(s.Name, s.Container, s.Kind, d.Name.Pos(), end, sig)
	g.add(Chunk{Start: g.start(d.Pos(), d.Doc), End: end, Symbol: s.Name, Kind: s.Kind,
		Names: []string{s.QualifiedName()}, NameLines: []int{0}, Header: sig})
}

// genDecl is the unit of a type, var or const declaration; a parenthesised
// group of several types is one unit a type. Imports belong to top.
func (g *goChunker) genDecl(d *ast.GenDecl) {
	switch {
	case d.Tok == token.IMPORT:
	case d.Tok == token.TYPE && d.Lparen.IsValid() && len(d.Specs) > 1:
		for i, s := range d.Specs {
			ts := s.(*ast.TypeSpec)
			start := g.line(ts.Pos())
			if ts.Doc != nil {
				start = g.line(ts.Doc.Pos())
			} else if i == 0 && d.Doc != nil {
				start = g.line(d.Doc.Pos())
			}
			g.add(g.typeUnit(ts, start, g.line(ts.End())))
		}
	case d.Tok == token.TYPE && len(d.Specs) == 1:
		g.add(g.typeUnit(d.Specs[0].(*ast.TypeSpec), g.start(d.Pos(), d.Doc), g.line(d.End())))
	default:
		g.add(g.valueUnit(d))
	}
}

// valueUnit is the unit of a var or const group, with a symbol a name.
func (g *goChunker) valueUnit(d *ast.GenDecl) Chunk {
	kind := "var"
	if d.Tok == token.CONST {
		kind = "const"
	}
	c := Chunk{Start: g.start(d.Pos(), d.Doc), End: g.line(d.End()), Kind: kind}
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for _, n := range vs.Names {
			if n.Name == "_" {
				continue
			}
			g.sym(n.Name, "", kind, n.Pos(), g.line(vs.End()), kind+" "+g.oneLine(vs.Pos(), vs.End()))
			c.Names = append(c.Names, n.Name)
			c.NameLines = append(c.NameLines, g.line(n.Pos()))
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
	return c
}

// typeUnit makes the chunk of one type spec and records the type, its
// struct fields and interface methods as symbols.
func (g *goChunker) typeUnit(ts *ast.TypeSpec, start, end int) Chunk {
	kind := "type"
	sigEnd := ts.End()
	switch t := ts.Type.(type) {
	case *ast.StructType:
		kind = "struct"
		sigEnd = t.Fields.Opening + 1
		g.members(ts.Name.Name, "field", t.Fields)
	case *ast.InterfaceType:
		kind = "interface"
		sigEnd = t.Methods.Opening + 1
		g.members(ts.Name.Name, "method", t.Methods)
	}
	sig := "type " + g.oneLine(ts.Pos(), sigEnd)
	g.sym(ts.Name.Name, "", kind, ts.Name.Pos(), end, sig)
	return Chunk{Start: start, End: end, Symbol: ts.Name.Name, Kind: kind, Names: []string{ts.Name.Name}, NameLines: []int{0}, Header: sig}
}

// members records the named fields of a struct or methods of an
// interface as symbols of kind in container (embedded ones have no name).
func (g *goChunker) members(container, kind string, list *ast.FieldList) {
	for _, f := range list.List {
		for _, n := range f.Names {
			g.sym(n.Name, container, kind, n.Pos(), g.line(f.End()), g.oneLine(f.Pos(), f.End()))
		}
	}
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
