package tools

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

// IsImplementable: a definition whose implementations, subclasses or
// implementing types can be looked for.
func IsImplementable(s index.Symbol) bool {
	if s.Language == "go" {
		return s.Kind == "interface"
	}
	return implKinds[s.Kind]
}

// FindImplementations lists the types of snap's code that implement or
// extend def (tests too when tests is true).
func FindImplementations(ctx context.Context, snap *index.Snapshot, def index.Symbol, tests bool) (Implementations, error) {
	tb := NewBox(snap, nil)
	tb.once = true
	return ImplementationsOf(ctx, snap, tb, def, tests)
}

func ImplementationsOf(ctx context.Context, src Source, tb *Box, def index.Symbol, tests bool) (Implementations, error) {
	if def.Language == "go" || strings.HasSuffix(def.Path, ".go") {
		return goImplementations(ctx, src, tb, def, tests)
	}
	return heritageImplementations(ctx, src, tb, def, tests)
}

// heritageImplementations follows the declarations that name a type as
// their base, level by level (maxHeritageDepth), each level from the
// files the index says hold the names of the level before.
func heritageImplementations(ctx context.Context, src Source, tb *Box, def index.Symbol, tests bool) (Implementations, error) {
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
func declarationsNaming(ctx context.Context, src Source, tb *Box, tr tree, name string, tests bool) ([]Implementation, bool, error) {
	paths, capped, err := candidateFiles(ctx, src, name)
	if err != nil {
		return nil, false, err
	}
	paths = slices.DeleteFunc(paths, func(p string) bool {
		return (!tests && IsTestPath(p)) || strings.HasSuffix(p, ".go") || NotCodeIn(src, p) || // prose, generated, declaration files (the index's class)
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
func basesIn(src Source, p string, content []byte, name string) []Implementation {
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

// tree is the files and folders of a source, for corpus.IsBuiltCopy.
type tree struct{ files, dirs map[string]bool }

func (t tree) hasFile(p string) bool { return t.files[p] }
func (t tree) hasDir(p string) bool  { return t.dirs[p] }

// treeOf lists src's files and folders (empty when it cannot).
func treeOf(src Source) tree {
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
