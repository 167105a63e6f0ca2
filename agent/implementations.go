package agent

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
)

// Implementation is one type that implements an interface or a trait, or
// extends a class or an interface: where it is declared and the line
// that says so.
type Implementation struct {
	Reference
	// Type is the implementing type's name ("File", "Child").
	Type string `json:"type"`
	// Via is the type it implements the asked one through, when it
	// extends a type that does ("" when directly).
	Via string `json:"via,omitempty"`
}

// Implementations are the types that implement or extend a type, found
// from the code: for a Go interface the types whose methods (declared in
// their own package) cover its method set, names and arity; for the
// other languages the class, interface, trait and impl declarations that
// name it as a base (extends, implements, a Python base class, Rust's
// impl Trait for Type), and those that extend them in turn.
type Implementations struct {
	Name string `json:"name"`
	// Of is the definition asked about: its kind and place.
	Of    index.Symbol     `json:"of"`
	Types []Implementation `json:"types"`
	Files int              `json:"files"`
	// Capped: not every file that may hold one was read, or the search
	// stopped at maxImplementations; the count is a floor.
	Capped bool `json:"capped,omitempty"`
	// Note says why nothing can implement it (an empty Go interface, a
	// constraint); "" otherwise.
	Note string `json:"note,omitempty"`
}

// maxImplementations caps the types an implementations search lists; the
// count is then a floor.
const maxImplementations = 500

// maxHeritageDepth is how many steps of "extends" an implementations
// search follows from the asked type (a class extending a class that
// implements the interface implements it too).
const maxHeritageDepth = 3

// implKinds are the kinds of definition whose implementations can be
// asked for: interfaces, traits, classes and their kin.
var implKinds = map[string]bool{
	"interface": true, "trait": true, "class": true, "struct": true, "type": true,
	"object": true, "record": true, "protocol": true, "module": true, "enum": true,
}

// isImplementable: a definition whose implementations, subclasses or
// implementing types can be looked for.
func isImplementable(s index.Symbol) bool {
	if s.Language == "go" {
		return s.Kind == "interface"
	}
	return implKinds[s.Kind]
}

// FindImplementations lists the types of snap's code that implement or
// extend def (tests too when tests is true).
func FindImplementations(ctx context.Context, snap *index.Snapshot, def index.Symbol, tests bool) (Implementations, error) {
	tb := newToolbox(snap, nil)
	tb.once = true
	return findImplementations(ctx, snap, tb, def, tests)
}

func findImplementations(ctx context.Context, src source, tb *toolbox, def index.Symbol, tests bool) (Implementations, error) {
	if def.Language == "go" || strings.HasSuffix(def.Path, ".go") {
		return goImplementations(ctx, src, tb, def, tests)
	}
	return heritageImplementations(ctx, src, tb, def, tests)
}

// heritageImplementations follows the declarations that name a type as
// their base, level by level (maxHeritageDepth), each level from the
// files the index says hold the names of the level before.
func heritageImplementations(ctx context.Context, src source, tb *toolbox, def index.Symbol, tests bool) (Implementations, error) {
	out := Implementations{Name: def.Name, Of: def}
	seen := map[string]bool{def.Path + ":" + fmt.Sprint(def.Line): true}
	files := map[string]bool{}
	level := []string{def.Name}
	via := map[string]string{def.Name: ""}
	tr := treeOf(src)
	for depth := 0; depth < maxHeritageDepth && len(level) > 0; depth++ {
		var next []string
		for _, name := range level {
			found, capped, err := declarationsNaming(ctx, src, tb, tr, name, tests)
			if err != nil {
				return out, err
			}
			out.Capped = out.Capped || capped
			for _, im := range found {
				key := im.Path + ":" + fmt.Sprint(im.Line)
				if seen[key] {
					continue
				}
				seen[key] = true
				if depth > 0 {
					im.Via = name
					if v := via[name]; v != "" {
						im.Via = v // named after the first step: "through Child"
					}
				}
				out.Types = append(out.Types, im)
				files[im.Path] = true
				if _, ok := via[im.Type]; !ok && im.Type != "" {
					via[im.Type] = im.Via
					if im.Via == "" {
						via[im.Type] = im.Type
					}
					next = append(next, im.Type)
				}
				if len(out.Types) == maxImplementations {
					out.Capped = true
					out.Files = len(files)
					sortImplementations(out.Types, path.Dir(def.Path))
					return out, nil
				}
			}
		}
		level = next
	}
	out.Files = len(files)
	sortImplementations(out.Types, path.Dir(def.Path))
	return out, nil
}

// declarationsNaming are the type declarations that name name as a
// base, in the files that hold the word, but for tests (unless tests),
// Go files, files that are not code and built copies (tr: the tree).
func declarationsNaming(ctx context.Context, src source, tb *toolbox, tr tree, name string, tests bool) ([]Implementation, bool, error) {
	paths, capped, err := candidateFiles(ctx, src, name)
	if err != nil {
		return nil, false, err
	}
	paths = slices.DeleteFunc(paths, func(p string) bool {
		return (!tests && isTestPath(p)) || strings.HasSuffix(p, ".go") || notCode(p) || // prose, generated, declaration files
			corpus.IsBuiltCopy(p, tr.hasFile, tr.hasDir) // a .js compiled from a .ts beside it repeats its classes
	})
	found, err := scanFiles(ctx, src, tb, paths, func(p string, content []byte) []Implementation {
		return basesIn(src, p, content, name)
	})
	if err != nil {
		return nil, false, err
	}
	var out []Implementation
	for _, f := range found {
		out = append(out, f.sites...)
	}
	return out, capped, nil
}

// sortImplementations orders types as sortSites orders sites.
func sortImplementations(ims []Implementation, folder string) {
	sort.SliceStable(ims, func(i, j int) bool { return siteLess(ims[i].Reference, ims[j].Reference, folder) })
}

// basesIn finds in one file the declarations whose bases name name: each
// class-like symbol of its outline is read from its line to where its
// body opens, and its base list (heritageNames) holds name.
func basesIn(src source, p string, content []byte, name string) []Implementation {
	syms, err := src.Outline(p)
	if err != nil {
		return nil
	}
	lines := strings.Split(string(content), "\n")
	var out []Implementation
	for _, s := range syms {
		// An alias (type A = B) names no base; a nested symbol's line
		// is not a declaration of its own kind.
		if !implKinds[s.Kind] && s.Kind != "impl" || s.Kind == "type" || s.Line < 1 || s.Line > len(lines) {
			continue
		}
		header := declHeader(p, lines, s.Line)
		typ, ok := implementsIn(p, s, header, name)
		if !ok {
			continue
		}
		text := strings.TrimRight(lines[s.Line-1], "\r")
		col := max(0, strings.Index(text, s.Name))
		out = append(out, Implementation{Reference: Reference{Path: p, Line: s.Line, Col: col, Text: text}, Type: typ})
	}
	return out
}

// declHeader is a declaration's text from line (1-based) to where its
// body opens or it ends: cut before the first '{' or ';', after a Python
// class line's closing ':', at a blank line or a line that starts
// another declaration; at most 6 lines, a Ruby class line alone.
func declHeader(p string, lines []string, line int) string {
	ext := strings.ToLower(path.Ext(p))
	var b strings.Builder
	for l := line; l <= len(lines) && l < line+6; l++ {
		text := lines[l-1]
		t := strings.TrimSpace(text)
		if l > line && (t == "" || startsDeclaration(t)) {
			break
		}
		if i := strings.IndexAny(text, "{;"); i >= 0 && ext != ".py" {
			b.WriteString(text[:i])
			break
		}
		b.WriteString(text + " ")
		if ext == ".rb" || (ext == ".py" || ext == ".pyi") && strings.HasSuffix(t, ":") {
			break
		}
	}
	return b.String()
}

// declWords start a declaration: a header that reaches a line starting
// with one has ended.
var declWords = map[string]bool{
	"class": true, "interface": true, "struct": true, "trait": true, "impl": true, "enum": true, "record": true,
	"object": true, "type": true, "def": true, "fn": true, "func": true, "function": true, "export": true,
	"public": true, "private": true, "protected": true, "internal": true, "abstract": true, "final": true,
	"sealed": true, "open": true, "data": true, "pub": true, "module": true, "const": true, "let": true, "var": true,
}

// startsDeclaration: trimmed line t begins a declaration (or an
// annotation or decorator, which comes before one).
func startsDeclaration(t string) bool {
	if strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") {
		return true
	}
	w := t
	if i := strings.IndexFunc(t, func(r rune) bool { return !(r == '_' || 'a' <= r && r <= 'z') }); i >= 0 {
		w = t[:i]
	}
	return declWords[w]
}

// implementsIn reports whether the declaration of s, whose header (its
// text up to its body) is header, names name as a base, and the type
// that then implements it: s's name, or for a Rust impl block the type
// it is for (s's name too: the outline names an impl after its type).
func implementsIn(p string, s index.Symbol, header, name string) (string, bool) {
	switch strings.ToLower(path.Ext(p)) {
	case ".rs":
		return s.Name, rustImplements(s, header, name)
	case ".py", ".pyi":
		return s.Name, pythonBases(header, s.Name, name)
	case ".rb":
		rest, ok := afterName(header, s.Name)
		if i := strings.IndexByte(rest, '<'); ok && i >= 0 {
			return s.Name, lastSegment(strings.Fields(rest[i+1:] + " ")[0]) == name
		}
		return "", false
	}
	rest, ok := afterName(header, s.Name)
	if !ok {
		return "", false
	}
	rest = dropGroups(dropGroups(rest, '<', '>'), '(', ')')
	if i := wordIndex(rest, "where"); i >= 0 {
		rest = rest[:i] // C#'s and Swift's constraints: not bases
	}
	for _, tok := range strings.FieldsFunc(rest, func(r rune) bool {
		return !(r == '_' || r == '$' || r == '.' || r == ':' || r == '\\' || r >= 0x80 || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		if lastSegment(tok) == name {
			return s.Name, true
		}
	}
	return "", false
}

// rustImplements: an `impl<…> path::Trait<…> for Type` block of the
// trait name, or a `trait Sub: path::Name + …` that requires it.
func rustImplements(s index.Symbol, header, name string) bool {
	h := strings.TrimSpace(header)
	if s.Kind == "impl" {
		i := wordIndex(h, "impl")
		if i < 0 {
			return false
		}
		h = strings.TrimSpace(h[i+len("impl"):])
		if strings.HasPrefix(h, "<") {
			h = h[groupEnd(h, '<', '>'):] // impl<T: Bound>
		}
		f := wordIndex(h, "for")
		if f < 0 || strings.HasPrefix(strings.TrimSpace(h), "!") {
			return false // an inherent impl, or a negative one
		}
		return lastSegment(strings.TrimSpace(dropGroups(h[:f], '<', '>'))) == name
	}
	if s.Kind != "trait" {
		return false
	}
	rest, ok := afterName(h, s.Name)
	rest = strings.TrimSpace(dropGroups(rest, '<', '>'))
	if !ok || !strings.HasPrefix(rest, ":") {
		return false
	}
	if i := wordIndex(rest, "where"); i >= 0 {
		rest = rest[:i]
	}
	for _, bound := range strings.Split(rest[1:], "+") {
		if lastSegment(strings.TrimSpace(bound)) == name {
			return true
		}
	}
	return false
}

// pythonBases: `class Name(Base, mod.Other, metaclass=M):` names name
// among its bases (not its keyword arguments).
func pythonBases(header, typ, name string) bool {
	rest, ok := afterName(header, typ)
	rest = strings.TrimSpace(rest)
	if !ok || !strings.HasPrefix(rest, "(") {
		return false
	}
	inner := rest[1 : groupEnd(rest, '(', ')')-1]
	depth, from := 0, 0
	var bases []string
	for i := 0; i <= len(inner); i++ {
		switch {
		case i == len(inner) || inner[i] == ',' && depth == 0:
			bases = append(bases, inner[from:i])
			from = i + 1
		case inner[i] == '(' || inner[i] == '[':
			depth++
		case inner[i] == ')' || inner[i] == ']':
			depth--
		}
	}
	for _, b := range bases {
		b = strings.TrimSpace(dropGroups(b, '[', ']'))
		if !strings.Contains(b, "=") && lastSegment(b) == name {
			return true
		}
	}
	return false
}

// afterName is header after the first whole-word occurrence of name.
func afterName(header, name string) (string, bool) {
	i := wordIndex(header, name)
	if i < 0 {
		return "", false
	}
	return header[i+len(name):], true
}

// wordIndex is the offset of the first whole-identifier occurrence of w
// in s, or -1.
func wordIndex(s, w string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		at := from + i
		if isWhole(s, at, at+len(w)) {
			return at
		}
		from = at + len(w)
	}
}

// lastSegment is the last part of a qualified name (a.b.C, a::b::C,
// \A\B\C), without generic arguments.
func lastSegment(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "<[("); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexAny(s, ".:\\"); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// dropGroups removes every balanced open…close group of s (generic
// arguments, a constructor's parameters), nested ones included.
func dropGroups(s string, open, close byte) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == open:
			depth++
		case s[i] == close && depth > 0:
			depth--
			if depth == 0 {
				b.WriteByte(' ')
			}
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// groupEnd is the offset after the group s opens with open (s[0]), or
// len(s) when it does not close.
func groupEnd(s string, open, close byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// tree is the files and folders of a source, for corpus.IsBuiltCopy.
type tree struct{ files, dirs map[string]bool }

func (t tree) hasFile(p string) bool { return t.files[p] }
func (t tree) hasDir(p string) bool  { return t.dirs[p] }

// treeOf lists src's files and folders (empty when it cannot).
func treeOf(src source) tree {
	t := tree{files: map[string]bool{}, dirs: map[string]bool{}}
	all, _ := src.Files("")
	for _, p := range all {
		t.files[p] = true
		for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
			t.dirs[d] = true
		}
	}
	return t
}
