package retrieval

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/agent/unit"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index"
	"github.com/askls/askls/rank"
	"github.com/askls/askls/words"
)

// maxDefinitions caps the definitions a retrieval answer puts first, and
// maxDefinitionsPerName those of one identifier.
const (
	maxDefinitions        = 4
	maxDefinitionsPerName = 2
)

var (
	identRE    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	backtickRE = regexp.MustCompile("`([^`\n]+)`")
)

// identifiers picks the names a question writes unambiguously as code:
// in backticks (`foo`), qualified (errors.Is, http.Server, widget::render),
// camel case with a capital after a lower-case letter (DetectContentType,
// ServeHTTP) or snake case of more than one part (max_len). Plain
// English words are never identifiers: not a capitalised word
// ("Content-Type", "Server"), not an all-capital one ("HTTP"), not
// "e.g.". A name written with "::" (rank.ScopedNames) is kept with its
// qualifiers ("widget::render", path keywords out) when it is of one
// part; a name of several parts (mylib::flush_all) is specific on its
// own and kept alone, and the qualifiers are no identifiers of their own.
// A name called on the way to a method of what it returns
// (Pad::new().pour(…)) is none.
func identifiers(q string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	scoped, q := rank.CutScoped(q)
	for _, s := range scoped {
		switch {
		case s.Chained:
			// Pad::new().pour(…): the question asks what the last
			// call does; the constructor on the way is not its subject.
		case len(s.Scopes) == 0 || words.IsCode(s.Name):
			add(s.Name)
		default:
			add(strings.Join(s.Scopes, "::") + "::" + s.Name)
		}
	}
	for _, m := range backtickRE.FindAllStringSubmatch(q, -1) {
		inner := strings.TrimSuffix(strings.TrimSpace(m[1]), "()")
		if w := identRE.FindString(inner); w != "" && len(w) == len(inner) {
			add(w)
		}
	}
	for _, w := range identRE.FindAllString(backtickRE.ReplaceAllString(q, " "), -1) {
		if words.IsCode(w) && qualifiedOK(w) {
			add(w)
		}
	}
	return out
}

// qualifiedOK rejects dotted abbreviations (e.g, i.e): every part of a
// dotted name is at least two characters long.
func qualifiedOK(w string) bool {
	for _, p := range strings.Split(w, ".") {
		if len(strings.Trim(p, "_")) < 2 {
			return !strings.Contains(w, ".")
		}
	}
	return true
}

// definitions finds the declarations of the identifiers in the question
// (exact names; "pkg.Name", "Type.Method" and "a::b::name" narrow by
// folder, file or container: qualifiedBy), as hits over the whole unit
// with its doc comment.
func (r *run) definitions() []index.Hit {
	var out []index.Hit
	skip := r.notDefining()
	for _, id := range identifiers(r.q.Text) {
		name, in := qualifiedBy(id)
		t0 := time.Now()
		limit := 20
		if in != nil {
			limit = 200 // "http.Get": many types have a Get method; the function may come late
		}
		syms := r.src.Symbols(name, limit)
		if strings.Contains(id, "::") && !slices.ContainsFunc(syms, func(s index.Symbol) bool { return s.Name == name && in(s) }) {
			// No type, file or folder of the workspace is named like the
			// qualifiers: another crate's or the project's own
			// (myproj::info), any definition of the name is meant.
			in = nil
		}
		var withBody, without []index.Hit
		for _, s := range syms {
			if s.Name != name || corpus.Classify(s.Path)&skip != 0 {
				continue
			}
			if s.Container == s.Name && in == nil {
				continue // a constructor (Java, C#, C++): the class is what the name means
			}
			if in != nil && !in(s) {
				continue
			}
			f, err := r.tb.File(s.Path)
			if err != nil {
				continue
			}
			h := index.Hit{Path: s.Path, Start: unit.DocStart(f, s.Line), End: max(s.EndLine, s.Line), Symbol: s.QualifiedName(), Kind: s.Kind, Language: s.Language}
			if declaredOnly(f, h) {
				without = append(without, h)
			} else if withBody = append(withBody, h); len(withBody) == maxDefinitionsPerName {
				break // enough with bodies: no further file is read
			}
		}
		// A unit with a body defines the name; an interface's method or
		// a prototype only declares it (rank.Bodiless).
		found := 0
		for _, h := range append(withBody, without...) {
			if len(out) == maxDefinitions || found == maxDefinitionsPerName {
				break
			}
			out = append(out, h)
			found++
		}
		step := tools.Step{Tool: "find_symbol", Args: map[string]any{"name": id}, Summary: fmt.Sprintf("%d definitions", found), MS: msSince(t0)}
		r.record(step, tools.Describe("find_symbol", tools.Args{"name": id}))
		if len(out) == maxDefinitions {
			break
		}
	}
	return out
}

// declaredOnly reports whether the unit h stands for is a function or
// method declared without a body (rank.Bodiless).
func declaredOnly(f *citations.LineIndex, h index.Hit) bool {
	text, ok := f.Lines(h.Start, h.End)
	if !ok {
		return false
	}
	return rank.DeclaredOnly(h.Kind, []byte(text))
}

// notDefining are the classes of file whose declarations of a name are
// not the definition a question means: tests, examples and vendored
// copies (a sample's SetUp override, a bundled library's Parse), unless
// the question asks for examples or vendored code (corpus.AsksFor).
func (r *run) notDefining() corpus.Class {
	var ws []string
	for _, t := range unit.QuestionTerms(r.q.Text) {
		ws = append(ws, t.Word, t.Stem)
	}
	return corpus.Test | (corpus.Example|corpus.Vendored)&^corpus.AsksFor(ws)
}

// atCursor is the innermost symbol around the cursor (Question.Path and
// Line), as a hit over the whole unit with its doc comment: "this" in a
// question usually means it.
func (r *run) atCursor() []index.Hit {
	if r.q.Path == "" || r.q.Line < 1 {
		return nil
	}
	syms, err := r.src.Outline(r.q.Path)
	if err != nil {
		return nil
	}
	var best *index.Symbol
	for i, s := range syms {
		end := max(s.EndLine, s.Line)
		if s.Line <= r.q.Line && r.q.Line <= end && (best == nil || end-s.Line < max(best.EndLine, best.Line)-best.Line) {
			best = &syms[i]
		}
	}
	if best == nil {
		return nil
	}
	f, err := r.tb.File(best.Path)
	if err != nil {
		return nil
	}
	label := best.QualifiedName()
	return []index.Hit{{Path: best.Path, Start: unit.DocStart(f, best.Line), End: max(best.EndLine, best.Line), Symbol: label, Kind: best.Kind, Language: best.Language}}
}

// qualifiedBy splits an identifier of the question into its name and
// the test a symbol of that name must pass to be the definition it
// means (nil: any). "Type.Method" names a container; "pkg.Name" a
// package-level name in a folder named like the package. A name written
// with "::" (widget::render, crate::io::copy as io::copy) is a method of
// a type named like one of its qualifiers (the index labels a C++
// out-of-class method widget.render, a Rust method Type.method), or a
// unit in a file or folder named like one (io.rs, io/mod.rs).
func qualifiedBy(id string) (name string, in func(index.Symbol) bool) {
	if scopes := strings.Split(id, "::"); len(scopes) > 1 {
		name, scopes = scopes[len(scopes)-1], scopes[:len(scopes)-1]
		return name, func(s index.Symbol) bool {
			file := path.Base(s.Path)
			if i := strings.IndexByte(file, '.'); i > 0 {
				file = file[:i]
			}
			dirs := strings.Split(path.Dir(s.Path), "/")
			for _, q := range scopes {
				if s.Container == q || file == q || slices.Contains(dirs, q) {
					return true
				}
			}
			return false
		}
	}
	parts := strings.Split(id, ".")
	name = parts[len(parts)-1]
	if len(parts) == 1 {
		return name, nil
	}
	qual := parts[len(parts)-2]
	return name, func(s index.Symbol) bool {
		return s.Container == qual || s.Container == "" && path.Base(path.Dir(s.Path)) == qual
	}
}
