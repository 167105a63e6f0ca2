package index

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// outlineExtractors list the symbols of a file in languages without a
// parser here; chunksFromSymbols turns the outline into chunks. Each is a
// line-based extractor: declarations are found by pattern (the rules of
// each language are in outline_<lang>.go), their end by the block style
// of the language (braces, indentation, or an "end" keyword). The choice
// of this approach over a parser library is measured in docs/outlines.md.
var outlineExtractors = map[string]func(content []byte, li lineIndex) []Symbol{}

// declRule finds one kind of declaration on a line. The name is the last
// group of re that matched.
type declRule struct {
	re   *regexp.Regexp
	kind string // "class", "func", ...; "$1" takes the kind from group 1
	// member rules apply only to the lines of a container's body that
	// are not inside one of its members (a class body, not a method's).
	member bool
	// ctor rules match only the name of the enclosing container (a Java
	// constructor, not an enum constant).
	ctor bool
	// defName names a declaration whose name is optional
	// ("companion object").
	defName string
	// follows: the match ends at an opening bracket ("(" or "<") that,
	// once closed, must be followed by this: "=>" for a multi-line arrow
	// function's parameters (not a parenthesised expression), "(" for a
	// method's multi-line type parameters (not a generic type).
	follows string
	// reject, when set, turns down a line that re matched (a callback
	// passed to items.map, not a function value).
	reject *regexp.Regexp
	// qualified rules take the container from group 1 of re, not from
	// the enclosing declaration (res.send = function, X.prototype.y =).
	qualified bool
	// toEOF declarations end with the file (C#'s "namespace X;").
	toEOF bool
	// in, when set, lists the container kinds a member rule applies in
	// (method signatures without a body: in an interface, not in an
	// object literal).
	in []string
	// need lists words of which a line must hold one for re to be tried
	// (a cheap test that spares most lines the regexp).
	need []string
	// typeAbove: the declaration may begin on the line above, which
	// holds its return type (C's `static struct task *` then
	// `pick(struct rq *rq)`); see typeLineAbove.
	typeAbove bool
}

type blockStyle int

const (
	braces blockStyle = iota
	indentation
	endKeyword
)

// outliner describes one language.
type outliner struct {
	rules []declRule
	style blockStyle
	// lineComment starts a comment the brace counter skips ("//", "#").
	lineComment string
	// lifetimes: a quote may open a Rust lifetime ('a), not a string.
	lifetimes bool
	// regexps: a slash where an expression starts opens a regexp literal
	// (JavaScript), whose brackets and quotes do not count.
	regexps bool
	// checkNames: names are not introduced by a keyword (a C function),
	// so a keyword may look like one.
	checkNames bool
	// macroBody: a "macro" declaration has a body in braces (Rust's
	// macro_rules!); else it ends with its last backslash-continued line.
	macroBody bool
}

// containerKinds hold methods: a function declared in one is a method,
// and is a unit of its own.
var containerKinds = map[string]bool{"class": true, "interface": true, "struct": true, "trait": true,
	"impl": true, "module": true, "namespace": true, "enum": true, "record": true, "object": true}

// namespaceKinds are containers whose functions are functions, not
// methods (a Rust mod, a TS namespace); they are still units of their own.
var namespaceKinds = map[string]bool{"module": true, "namespace": true}

// notNames are keywords that member patterns, and the rules of outliners
// with checkNames, must not take for names.
var notNames = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"else": true, "new": true, "do": true, "try": true, "function": true, "sizeof": true, "throw": true,
	"case": true, "using": true, "lock": true, "foreach": true, "elif": true, "until": true, "unless": true, "with": true,
	"await": true, "yield": true, "typeof": true, "super": true, "this": true, "fixed": true, "checked": true}

// decl is a rule for declarations of kind matching re on lines that hold
// one of need (any line when need is empty).
func decl(kind, re string, need ...string) declRule {
	return declRule{re: regexp.MustCompile(re), kind: kind, need: need}
}

// member is decl for a rule that applies only in a container's body.
func member(kind, re string, need ...string) declRule {
	r := decl(kind, re, need...)
	r.member = true
	return r
}

// signature is member for a rule that applies only in containers of the
// given kinds.
func signature(kinds []string, kind, re string, need ...string) declRule {
	r := member(kind, re, need...)
	r.in = kinds
	return r
}

// holdsAny reports whether line holds one of words (true for none).
func holdsAny(line string, words []string) bool {
	for _, w := range words {
		if strings.Contains(line, w) {
			return true
		}
	}
	return len(words) == 0
}

func register(o *outliner, langs ...string) {
	for _, l := range langs {
		outlineExtractors[l] = o.outline
	}
}

// outline lists the declarations of content in line order. A declaration
// inside another names it as its Container; one directly inside a
// container kind (class, impl, ...) is a method.
func (o *outliner) outline(content []byte, li lineIndex) []Symbol {
	var stack []int // open declarations: indexes in syms
	var syms []Symbol
	n := li.lines()
	for l := 1; l <= n; l++ {
		raw := bytes.TrimRight(li.text(content, l, l), "\r\n")
		if len(raw) > 1000 {
			continue // minified code
		}
		for len(stack) > 0 && syms[stack[len(stack)-1]].EndLine < l {
			stack = stack[:len(stack)-1]
		}
		trim := bytes.TrimSpace(raw)
		if len(trim) == 0 || o.isComment(trim) {
			continue
		}
		line := string(raw)
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		inContainer := parent >= 0 && containerKinds[syms[parent].Kind]
		r, name, kind, owner := o.match(line, parent, inContainer, syms, content, li, l)
		if name == "" {
			continue
		}
		if kind == "func" && inContainer && !namespaceKinds[syms[parent].Kind] {
			kind = "method"
		}
		if kind == "method" && !inContainer && owner == "" {
			kind = "func"
		}
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:] // impl fmt::Display -> Display
		}
		end := l
		switch {
		case r.toEOF || (kind == "namespace" && bytes.HasSuffix(trim, []byte(";"))):
			end = n
		case kind == "macro" && !o.macroBody:
			for end < n && bytes.HasSuffix(bytes.TrimRight(li.text(content, end, end), " \t\r\n"), []byte(`\`)) {
				end++
			}
		default:
			end = o.blockEnd(content, li, l)
		}
		container := owner
		if parent >= 0 {
			if container == "" {
				container = syms[parent].Name
			}
			end = min(end, syms[parent].EndLine)
		}
		sig := line
		if len(sig) > 400 {
			sig = sig[:400]
		}
		sig = strings.TrimSpace(sig)
		sig = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(sig, "{")), ":")
		if len(sig) > 200 {
			sig = sig[:200] + "…"
		}
		start := l
		if r.typeAbove && l > 1 {
			if above, ok := typeLineAbove(li.text(content, l-1, l-1)); ok {
				start, sig = l-1, above+" "+sig
			}
		}
		syms = append(syms, Symbol{Name: name, Container: container, Kind: kind, Line: start, EndLine: end, Signature: sig})
		if end > l {
			stack = append(stack, len(syms)-1)
		}
	}
	return syms
}

// typeLineAbove returns the line above a declaration, trimmed, when it
// can be the declaration's return type: not blank, not a comment or a
// preprocessor line, and not the end of a statement, block or argument
// list.
func typeLineAbove(raw []byte) (string, bool) {
	t := strings.TrimSpace(string(raw))
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") ||
		strings.HasPrefix(t, "*") || strings.HasSuffix(t, "*/") || len(t) > 200 {
		return "", false
	}
	switch t[len(t)-1] {
	case ';', '{', '}', ')', ',', '\\', ':', '=':
		return "", false
	}
	return t, true
}

// isComment reports whether a trimmed line is a comment (or the inside of
// a block comment), where no declaration starts.
func (o *outliner) isComment(trim []byte) bool {
	if o.lineComment != "" && bytes.HasPrefix(trim, []byte(o.lineComment)) {
		return true
	}
	if o.style != braces {
		return false
	}
	// " * text" and " */" inside a block comment; "*gen() {" is code.
	return bytes.HasPrefix(trim, []byte("/*")) ||
		(trim[0] == '*' && (len(trim) == 1 || trim[1] == ' ' || trim[1] == '\t' || trim[1] == '/' || trim[1] == '*'))
}

// match tries the rules on line l and returns the rule that matched with
// the declaration's name and kind ("" when none did).
func (o *outliner) match(line string, parent int, inContainer bool, syms []Symbol, content []byte, li lineIndex, l int) (r declRule, name, kind, owner string) {
	for _, r := range o.rules {
		if (r.member && !inContainer) || !holdsAny(line, r.need) {
			continue
		}
		if len(r.in) > 0 && !slices.Contains(r.in, syms[parent].Kind) {
			continue
		}
		m := r.re.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		name := ""
		if g := len(m)/2 - 1; g > 0 && m[2*g] >= 0 {
			name = line[m[2*g]:m[2*g+1]]
		}
		owner := ""
		if r.qualified {
			if owner = line[m[2]:m[3]]; owner == "this" || (owner == "module" && name == "exports") {
				continue
			}
		}
		if r.reject != nil && r.reject.MatchString(line[m[0]:m[1]]) {
			continue
		}
		if name == "" {
			name = r.defName
		}
		if name == "" || ((r.member || o.checkNames) && notNames[name]) {
			continue
		}
		if r.ctor && (parent < 0 || syms[parent].Name != name) {
			continue
		}
		if r.follows != "" && !closedThen(content, li[l-1]+strings.LastIndexAny(line[:m[1]], "(<"), r.follows) {
			continue
		}
		kind := r.kind
		if kind == "$1" {
			kind = line[m[2]:m[3]]
		}
		return r, name, kind, owner
	}
	return declRule{}, "", "", ""
}

// closedThen reports whether the bracket at content[at] is closed within
// a few kilobytes and then followed by then: "(" right away, "=>" after an
// optional type annotation.
func closedThen(content []byte, at int, then string) bool {
	if at < 0 || at >= len(content) || (content[at] != '(' && content[at] != '<') {
		return false
	}
	open, close := content[at], byte(')')
	if open == '<' {
		close = '>'
	}
	depth := 0
	limit := min(len(content), at+4096)
	for i := at; i < limit; i++ {
		switch content[i] {
		case open:
			depth++
		case close:
			if i > 0 && content[i-1] == '=' {
				continue // the arrow of a function type inside
			}
			depth--
			if depth > 0 {
				continue
			}
			rest := content[i+1 : min(len(content), i+200)]
			j := bytes.Index(rest, []byte(then))
			if j < 0 {
				return false
			}
			between := bytes.TrimSpace(rest[:j])
			return len(between) == 0 || (then == "=>" && between[0] == ':')
		case ';':
			return false
		}
	}
	return false
}

// blockEnd finds the last line of the declaration that starts on line l.
func (o *outliner) blockEnd(content []byte, li lineIndex, l int) int {
	switch o.style {
	case indentation:
		k, inline, ok := pythonHeaderEnd(content, li, l)
		if ok && inline {
			return k // a one-line body: "def f(): ...", "class E: pass"
		}
		if !ok {
			k = l
		}
		return indentEndFrom(content, li, l, k)
	case endKeyword:
		indent := indentOf(li.text(content, l, l))
		for k := l + 1; k <= li.lines() && k < l+5000; k++ {
			t := li.text(content, k, k)
			trim := bytes.TrimSpace(t)
			if len(trim) == 0 {
				continue
			}
			if indentOf(t) == indent && (bytes.Equal(trim, []byte("end")) || bytes.HasPrefix(trim, []byte("end ")) ||
				bytes.HasPrefix(trim, []byte("end)")) || bytes.HasPrefix(trim, []byte("end,"))) {
				return k
			}
			if indentOf(t) < indent {
				return k - 1
			}
		}
		return indentEnd(content, li, l)
	}
	return o.braceEnd(content, li, l)
}

// maxArgLines bounds how far a declaration whose body has not opened is
// followed inside an argument list (a callback wrapped in a call): an
// unbalanced parenthesis must not make every declaration of a file scan
// to its end.
const maxArgLines = 500

// braceEnd finds the end of a declaration in a language with braces,
// skipping strings and comments. Before its body opens, the declaration
// may run over several lines (parameters, a where clause); braces inside
// parentheses there (a default value, an object type) do not open it. It
// ends without a body at a ';', at a '}' that closes the enclosing block,
// or at a line after which nothing continues it (an arrow function's
// expression body, a Kotlin abstract fun).
func (o *outliner) braceEnd(content []byte, li lineIndex, l int) int {
	start := li[l-1]
	depth, paren := 0, 0
	opened := false
	line := l
	limit := min(len(content), start+1<<20)
	for i := start; i < limit; i++ {
		c := content[i]
		switch {
		case c == '\n':
			if !opened && paren <= 0 && !continues(content, li, line) {
				return line
			}
			if i+1 == len(content) {
				return line // the newline that ends the last line starts none
			}
			line++
			if !opened && (line > l+maxArgLines || (paren <= 0 && line > l+30)) {
				return l // no body in sight
			}
		case o.lineComment != "" && bytes.HasPrefix(content[i:], []byte(o.lineComment)):
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				return line
			}
			i += j - 1 // the newline is seen next
		case c == '/' && i+1 < len(content) && content[i+1] == '*':
			j := bytes.Index(content[i+2:], []byte("*/"))
			if j < 0 {
				return line
			}
			line += bytes.Count(content[i:i+2+j], []byte{'\n'})
			i += j + 3
		case c == '\\' && i+1 < limit && content[i+1] != '\n':
			i++ // an escaped character outside a string: \{ in a regexp literal
		case c == '/' && o.regexps && regexpStarts(content, start, i):
			if j := regexpEnd(content, i); j > i {
				i = j
			}
		case c == '\'' && o.lifetimes && !rustChar(content[i:]):
			// a lifetime: 'a
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < limit && content[j] != c && (content[j] != '\n' || c == '`') {
				if content[j] == '\\' {
					j++
				}
				j++
			}
			if j < limit && content[j] == c {
				line += bytes.Count(content[i:j], []byte{'\n'})
				i = j
			}
			// An unclosed quote (an apostrophe in a regexp) is not a string.
		case !opened && (c == '(' || c == '['):
			paren++
		case !opened && (c == ')' || c == ']'):
			paren--
		case c == '{':
			if !opened && paren > 0 {
				continue // an object in the parameters
			}
			depth++
			opened = true
		case c == '}':
			if !opened && paren > 0 {
				continue
			}
			depth--
			if depth <= 0 && !(opened && depth == 0 && goesOn(content, li, i+1, line)) {
				return line
			}
		case c == ';' && !opened && paren <= 0:
			return line
		}
	}
	return line
}

// goesOn reports whether a declaration goes on after the brace that
// closed a block at content[i-1] on line l: "} else {" (a Kotlin
// expression body "= if (...) {...} else {...}"), "}.also {", a line
// that opens another block (the block closed was an object type in a
// signature), or a next line starting with else, catch, finally or a
// call.
func goesOn(content []byte, li lineIndex, i, l int) bool {
	rest := content[i:]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	rest = bytes.TrimSpace(rest)
	if bytes.HasSuffix(rest, []byte("{")) {
		return true // the braces closed were a type: "): T & { signal: S } {"
	}
	if len(rest) == 0 {
		if l >= li.lines() {
			return false
		}
		for k := l + 1; k <= li.lines() && k < l+3; k++ {
			if rest = bytes.TrimSpace(li.text(content, k, k)); len(rest) > 0 {
				break
			}
		}
	}
	for _, w := range []string{"else", "catch", "finally", ".", "?."} {
		if bytes.HasPrefix(rest, []byte(w)) {
			return true
		}
	}
	return false
}

// regexpStarts reports whether the slash at content[i] (not "//" or "/*")
// starts a regexp literal: it follows, on its line, an operator or an
// opening bracket, or nothing.
func regexpStarts(content []byte, from, i int) bool {
	if i+1 < len(content) && (content[i+1] == '/' || content[i+1] == '*') {
		return false
	}
	for k := i - 1; k >= from; k-- {
		switch c := content[k]; c {
		case ' ', '\t':
			continue
		case '\n':
			return true
		case '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '>':
			return true
		default:
			return false
		}
	}
	return true
}

// regexpEnd returns the index of the slash that closes the regexp literal
// opened at content[i], or i when the line ends first (not a regexp).
func regexpEnd(content []byte, i int) int {
	class := false
	for j := i + 1; j < len(content) && j < i+1000; j++ {
		switch content[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				return j
			}
		case '\n':
			return i
		}
	}
	return i
}

// rustChar reports whether b, starting with a quote, is a Rust character
// literal ('x', '\n', '\u{1F600}') rather than a lifetime ('a).
func rustChar(b []byte) bool {
	if len(b) >= 3 && b[1] == '\\' {
		return true
	}
	if len(b) < 3 {
		return false
	}
	// One character, possibly several bytes of UTF-8, then a quote.
	for k := 2; k < len(b) && k <= 5; k++ {
		if b[k] == '\'' {
			return true
		}
		if b[k] < 0x80 {
			return false
		}
	}
	return false
}

// continuedBy lists how a line may end, or the next one start, when a
// declaration runs on over the line break.
var (
	continuedByEnd   = []string{",", "(", "[", "=", "=>", "->", ":", "&&", "||", "+", "-", "*", "|", "&", ".", "<", "extends", "implements", "where", "throws"}
	continuedByStart = []string{"{", ".", "?", ":", "=>", "->", "=", "|", "&", "+", "-", ")", "]", ">", "where", "throws", "extends", "implements", "requires", "noexcept"}
)

// continues reports whether a declaration not yet in its body goes on
// after line l: the line ends with an operator or a comma, or the next
// line with text starts with a brace, an operator or a clause keyword.
func continues(content []byte, li lineIndex, l int) bool {
	t := strings.TrimSpace(string(li.text(content, l, l)))
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
		return true // a comment between the signature and the body
	}
	if i := strings.Index(t, " //"); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	for _, s := range continuedByEnd {
		if strings.HasSuffix(t, s) {
			return true
		}
	}
	for k := l + 1; k <= li.lines() && k < l+20; k++ {
		next := strings.TrimSpace(string(li.text(content, k, k)))
		if next == "" {
			continue
		}
		if strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/*") || strings.HasPrefix(next, "*") {
			continue
		}
		for _, s := range continuedByStart {
			if strings.HasPrefix(next, s) {
				return true
			}
		}
		return false
	}
	return false
}

// indentEnd: the block of line l ends before the next non-blank line
// indented no deeper than l, once the header (up to a line ending in ':')
// is over.
func indentEnd(content []byte, li lineIndex, l int) int {
	k := l
	// Skip a multi-line header.
	for k <= li.lines() && k < l+30 {
		t := bytes.TrimRight(li.text(content, k, k), " \t\r\n")
		if i := bytes.IndexByte(t, '#'); i >= 0 {
			t = bytes.TrimRight(t[:i], " \t")
		}
		if bytes.HasSuffix(t, []byte(":")) {
			break
		}
		k++
	}
	if k > l+29 {
		k = l
	}
	return indentEndFrom(content, li, l, k)
}

// indentEndFrom is indentEnd once the header of the block that starts on
// line l is known to end on line k: the last line indented more than l
// (multi-line strings whatever their indentation).
func indentEndFrom(content []byte, li lineIndex, l, k int) int {
	indent := indentOf(li.text(content, l, l))
	end := k
	quote := "" // the triple quote of a string open across lines
	for m := k + 1; m <= li.lines(); m++ {
		t := li.text(content, m, m)
		if quote != "" {
			// A line of a multi-line string, however indented.
			end = m
			quote = tripleQuote(t, quote)
			continue
		}
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		if indentOf(t) <= indent {
			break
		}
		end = m
		quote = tripleQuote(t, "")
	}
	return end
}

// tripleQuote returns the triple quote (three double or three single
// quotes) still open after line t, given the one open before it ("" for
// none).
func tripleQuote(t []byte, open string) string {
	if open == "" && !bytes.Contains(t, []byte(`"""`)) && !bytes.Contains(t, []byte("'''")) {
		return ""
	}
	for i := 0; i+3 <= len(t); i++ {
		if open == "" && t[i] == '#' {
			return ""
		}
		q := t[i : i+3]
		switch {
		case open != "" && string(q) == open:
			open = ""
			i += 2
		case open == "" && (string(q) == `"""` || string(q) == "'''"):
			open = string(q)
			i += 2
		}
	}
	return open
}

func indentOf(line []byte) int {
	n := 0
	for _, c := range line {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}
