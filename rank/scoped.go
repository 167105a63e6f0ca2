package rank

import (
	"regexp"
	"slices"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// scopedRE matches a name qualified with "::", the path separator of C++
// and Rust (widget::render, mylib::detail::flush_all, Vec::new): the
// qualifiers with their separators, then the name.
var scopedRE = regexp.MustCompile(`\b((?:[A-Za-z_][A-Za-z0-9_]*::)+)([A-Za-z_][A-Za-z0-9_]*)\b`)

// chainRE matches, after a name, a call and then a method call on what
// it returns: ().parse, ("x").build.
var chainRE = regexp.MustCompile(`^\([^()]*\)\.[A-Za-z_]`)

// pathKeywords are the qualifiers of a Rust path that name no module of
// their own (crate::io::copy is io's copy) and are no words of the
// question.
var pathKeywords = map[string]bool{"crate": true, "self": true, "super": true, "Self": true}

// stdScopes are the qualifiers that name the language's standard
// library (std::vector, std::io::Error): the workspace does not define
// what they name, so such a name is no identifier of the question.
var stdScopes = map[string]bool{"std": true}

// ScopedName is a name a query writes with "::": its qualifiers
// (path keywords out, outermost first) and the name.
type ScopedName struct {
	Scopes []string
	Name   string
	// Chained: the query calls the name and then a method of what it
	// returns (Pad::new().pour(...)): a step on the way to the
	// call it asks about.
	Chained bool
}

// CutScoped returns the names q writes with "::" (ScopedNames) and q
// with the text of each blanked out.
func CutScoped(q string) ([]ScopedName, string) {
	return ScopedNames(q), scopedRE.ReplaceAllString(q, " ")
}

// ScopedNames returns the names q writes with "::", standard library
// names left out.
func ScopedNames(q string) []ScopedName {
	var out []ScopedName
	for _, at := range scopedRE.FindAllStringSubmatchIndex(q, 16) {
		qual, name := q[at[2]:at[3]], q[at[4]:at[5]]
		var scopes []string
		for _, s := range strings.Split(strings.TrimSuffix(qual, "::"), "::") {
			if !pathKeywords[s] {
				scopes = append(scopes, s)
			}
		}
		if len(scopes) > 0 && stdScopes[scopes[0]] {
			continue
		}
		out = append(out, ScopedName{Scopes: scopes, Name: name, Chained: chainRE.MatchString(q[at[1]:])})
	}
	return out
}

// scopedWords splits a word of a query written with "::" into its
// parts, path keywords out (crate::io::copy: io, copy): each part is a
// word of its own, the last the name. A word without "::" is itself.
func scopedWords(w string) []string {
	if !strings.Contains(w, "::") {
		return []string{w}
	}
	var out []string
	for _, s := range strings.Split(w, "::") {
		if s != "" && !pathKeywords[s] {
			out = append(out, s)
		}
	}
	return out
}

// qualifyScoped adds to quals the names q writes with "::" (see
// ScopedNames) and returns q with each written as its name alone, for
// codeIdents to read further: widget::render is the identifier render,
// defined under widget (Qualifier.Scopes); a standard library name
// (std::make_shared) is blanked out. A name of several parts
// (flush_all) names its definition on its own, as a package-qualified
// one does, and is not narrowed to its qualifiers. A chained call
// (Pad::new().pour) is an identifier here: its definition leads to
// the code the chain runs.
func qualifyScoped(q string, add func(string), quals map[string]Qualifier) string {
	for _, s := range ScopedNames(q) {
		id := strings.ToLower(s.Name)
		if len(id) < 2 {
			continue
		}
		add(s.Name)
		if _, ok := quals[id]; !ok && len(s.Scopes) > 0 && !isMultiPart(s.Name) {
			quals[id] = Qualifier{Pkg: s.Scopes[len(s.Scopes)-1], Name: s.Name, Scopes: s.Scopes}
		}
	}
	return scopedRE.ReplaceAllStringFunc(q, func(m string) string {
		if stdScopes[m[:strings.Index(m, "::")]] {
			return " " // std::make_shared is no identifier of the question
		}
		return m[strings.LastIndex(m, "::")+2:]
	})
}

// scopes are the names a unit's type, module, file or folder may have
// for the unit to define q's name: those of a "::" path, else the
// package.
func (q Qualifier) scopes() []string {
	if q.Scopes != nil {
		return q.Scopes
	}
	return []string{q.Pkg}
}

// unscopeProjects takes the project's own names out of the qualifiers of
// the names a query writes with "::": myproj::info (or the crate
// my_proj::info) is info anywhere in the project. A name left with no
// qualifier is defined by any unit of that name.
func (p *Plan) unscopeProjects(names []string) {
	for id, q := range p.Qualifiers {
		if q.Scopes == nil {
			continue
		}
		q.Scopes = slices.DeleteFunc(slices.Clone(q.Scopes), func(s string) bool { return namesProject(names, strings.ToLower(s)) })
		if len(q.Scopes) == 0 {
			delete(p.Qualifiers, id)
			continue
		}
		q.Pkg = q.Scopes[len(q.Scopes)-1]
		p.Qualifiers[id] = q
	}
}

// projectCalls adds to the query's identifiers the names it writes
// qualified by a project's name with a dot (myproj.render,
// widget.widget() in the Python package widget), which codeIdents does
// not take when they are lower case: qualified by the project, the name
// is code of the project. A file name (myproj.toml, myproj.py) is none.
func (p *Plan) projectCalls(names []string) {
	for _, d := range p.dotted {
		id := strings.ToLower(d.Name)
		if len(id) < 2 || !namesProject(names, strings.ToLower(d.Pkg)) || isFileExt(id) || slices.Contains(p.Idents, id) {
			continue
		}
		p.Idents = append(p.Idents, id)
	}
}

// isFileExt reports whether ext (lower case, no dot) ends the names of
// files of a known language, or of prose or configuration.
func isFileExt(ext string) bool {
	return chunk.Language("f."+ext) != "text" || fileExts[ext]
}

var fileExts = map[string]bool{"txt": true, "lock": true, "cfg": true, "ini": true, "conf": true, "log": true, "csv": true, "env": true}

// qualifiedNameTerms are the terms of the names the query writes
// qualified, with a dot or "::" (the name of assert.Equal, widget::render,
// widget.widget()): what the query asks about, which DropNames keeps
// even when it is also the project's name.
func (p *Plan) qualifiedNameTerms() map[string]bool {
	out := map[string]bool{}
	for _, d := range p.dotted {
		for _, t := range Terms(d.Name) {
			out[t] = true
		}
	}
	for _, s := range p.scoped {
		for _, t := range Terms(s.Name) {
			out[t] = true
		}
	}
	return out
}
