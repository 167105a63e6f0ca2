package tools

import (
	"bytes"
	"context"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askls/askls/index"
)

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
func goEmbedders(ctx context.Context, src Source, tb *Box, out *Implementations, tests bool) error {
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
func embedCandidates(ctx context.Context, src Source, targets []embedTarget, home string, tests bool, budget *int, dirs map[string][]string) (map[string][]embedTarget, bool, error) {
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
		paths = slices.DeleteFunc(paths, func(p string) bool { return !strings.HasSuffix(p, ".go") || (!tests && IsTestPath(p)) })
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
func embeddingFields(src Source, p string, content []byte, targets []embedTarget) []Implementation {
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
func filesIn(src Source, dir string, dirs map[string][]string) ([]string, error) {
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
