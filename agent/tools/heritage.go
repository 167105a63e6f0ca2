package tools

import (
	"path"
	"strings"

	"github.com/askls/askls/index"
)

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
