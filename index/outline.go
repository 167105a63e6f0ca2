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
		kind = memberKind(kind, inContainer, owner != "", parent >= 0 && namespaceKinds[syms[parent].Kind])
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:] // impl fmt::Display -> Display
		}
		end := o.declEnd(r, kind, trim, content, li, l)
		container := owner
		if parent >= 0 {
			if container == "" {
				container = syms[parent].Name
			}
			end = min(end, syms[parent].EndLine)
		}
		start, sig := l, signatureOf(line)
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

// memberKind is the kind of a declaration that its rule says is kind: a
// func directly in a container (not a namespace) is a method, and a
// method outside any container, without an owner its line names
// (res.send = function), is a func.
func memberKind(kind string, inContainer, owned, inNamespace bool) string {
	switch {
	case kind == "func" && inContainer && !inNamespace:
		return "method"
	case kind == "method" && !inContainer && !owned:
		return "func"
	}
	return kind
}

// declEnd is the last line of the declaration of kind that rule r found
// on line l (trim: the line, trimmed): the file's end for a declaration
// that runs to it (C#'s "namespace X;"), a macro's last
// backslash-continued line, else the end of its block.
func (o *outliner) declEnd(r declRule, kind string, trim, content []byte, li lineIndex, l int) int {
	n := li.lines()
	switch {
	case r.toEOF || (kind == "namespace" && bytes.HasSuffix(trim, []byte(";"))):
		return n
	case kind == "macro" && !o.macroBody:
		end := l
		for end < n && bytes.HasSuffix(bytes.TrimRight(li.text(content, end, end), " \t\r\n"), []byte(`\`)) {
			end++
		}
		return end
	}
	return o.blockEnd(content, li, l)
}

// signatureOf is the one-line signature of a declaration on line: the
// line trimmed, without the brace or colon that opens its body, at most
// 200 bytes.
func signatureOf(line string) string {
	sig := line
	if len(sig) > 400 {
		sig = sig[:400]
	}
	sig = strings.TrimSpace(sig)
	sig = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(sig, "{")), ":")
	if len(sig) > 200 {
		sig = sig[:200] + "…"
	}
	return sig
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
		at := lineAt{line: line, parent: parent, syms: syms, content: content, offset: li[l-1]}
		if name, kind, owner, ok := o.try(r, at); ok {
			return r, name, kind, owner
		}
	}
	return declRule{}, "", "", ""
}

// lineAt is a line that match tries the rules on: its text, its first
// byte in content, and the declaration it is in (parent in syms, -1 for
// none).
type lineAt struct {
	line    string
	parent  int
	syms    []Symbol
	content []byte
	offset  int
}

// try applies rule r to a line: the name, kind and owner of the
// declaration it finds, or ok false.
func (o *outliner) try(r declRule, at lineAt) (name, kind, owner string, ok bool) {
	line := at.line
	m := r.re.FindStringSubmatchIndex(line)
	if m == nil {
		return "", "", "", false
	}
	if g := len(m)/2 - 1; g > 0 && m[2*g] >= 0 {
		name = line[m[2*g]:m[2*g+1]]
	}
	if r.qualified {
		if owner = line[m[2]:m[3]]; owner == "this" || (owner == "module" && name == "exports") {
			return "", "", "", false
		}
	}
	if r.reject != nil && r.reject.MatchString(line[m[0]:m[1]]) {
		return "", "", "", false
	}
	if name == "" {
		name = r.defName
	}
	if name == "" || ((r.member || o.checkNames) && notNames[name]) {
		return "", "", "", false
	}
	if r.ctor && (at.parent < 0 || at.syms[at.parent].Name != name) {
		return "", "", "", false
	}
	if r.follows != "" && !closedThen(at.content, at.offset+strings.LastIndexAny(line[:m[1]], "(<"), r.follows) {
		return "", "", "", false
	}
	kind = r.kind
	if kind == "$1" {
		kind = line[m[2]:m[3]]
	}
	return name, kind, owner, true
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
	s := &braceScan{o: o, content: content, li: li, l: l, start: li[l-1], line: l}
	s.limit = min(len(content), s.start+1<<20)
	for i := s.start; i < s.limit; i++ {
		next, done := s.step(i)
		if done {
			break
		}
		i = next
	}
	return s.line
}

// braceScan is what braceEnd knows as it reads a declaration from its
// first byte.
type braceScan struct {
	o       *outliner
	content []byte
	li      lineIndex
	l       int // the declaration's first line
	start   int // its first byte
	limit   int // the byte where the scan gives up
	line    int // the line being read; the declaration's end once done
	depth   int // braces open in the body
	paren   int // parentheses and brackets open before the body
	opened  bool
}

// step reads the byte at i and returns the index of the last byte it
// read, and done when the declaration ends (on s.line).
func (s *braceScan) step(i int) (int, bool) {
	c := s.content[i]
	if c == '\n' {
		return i, s.newline(i)
	}
	if j, ok, done := s.skip(i); ok {
		return j, done
	}
	return i, s.bracket(c, i)
}

// newline moves to the next line at the newline content[i]; done when
// the declaration ends on the line it ends: no body opened and nothing
// continues it, the file's end, or no body in sight (the declaration is
// then its first line).
func (s *braceScan) newline(i int) bool {
	if !s.opened && s.paren <= 0 && !continues(s.content, s.li, s.line) {
		return true
	}
	if i+1 == len(s.content) {
		return true // the newline that ends the last line starts none
	}
	s.line++
	if !s.opened && (s.line > s.l+maxArgLines || (s.paren <= 0 && s.line > s.l+30)) {
		s.line = s.l // no body in sight
		return true
	}
	return false
}

// skip steps over what is not code at content[i]: a comment, an escaped
// character outside a string (\{ in a regexp literal), a regexp literal,
// a lifetime ('a) or a string. It returns the index of the last byte it
// read; ok is false when there is none of these at i, done is true when
// the file ends inside a comment.
func (s *braceScan) skip(i int) (j int, ok, done bool) {
	content, c := s.content, s.content[i]
	switch {
	case s.o.lineComment != "" && bytes.HasPrefix(content[i:], []byte(s.o.lineComment)):
		k := bytes.IndexByte(content[i:], '\n')
		if k < 0 {
			return i, true, true
		}
		return i + k - 1, true, false // the newline is read next
	case c == '/' && i+1 < len(content) && content[i+1] == '*':
		k := bytes.Index(content[i+2:], []byte("*/"))
		if k < 0 {
			return i, true, true
		}
		s.line += bytes.Count(content[i:i+2+k], []byte{'\n'})
		return i + k + 3, true, false
	case c == '\\' && i+1 < s.limit && content[i+1] != '\n':
		return i + 1, true, false
	case c == '/' && s.o.regexps && regexpStarts(content, s.start, i):
		return max(i, regexpEnd(content, i)), true, false
	case c == '\'' && s.o.lifetimes && !rustChar(content[i:]):
		return i, true, false
	case c == '"' || c == '\'' || c == '`':
		return s.quoted(i), true, false
	}
	return i, false, false
}

// quoted returns the index of the quote that closes the string opened at
// content[i], counting the lines inside, or i when the line ends first
// (an apostrophe in a regexp is not a string); a backquoted string may
// span lines.
func (s *braceScan) quoted(i int) int {
	content, c := s.content, s.content[i]
	j := i + 1
	for j < s.limit && content[j] != c && (content[j] != '\n' || c == '`') {
		if content[j] == '\\' {
			j++
		}
		j++
	}
	if j < s.limit && content[j] == c {
		s.line += bytes.Count(content[i:j], []byte{'\n'})
		return j
	}
	return i
}

// bracket counts the bracket c at content[i]; done when the declaration
// ends there: its body closed (and nothing goes on after it), a '}' that
// closes the enclosing block, or a ';' before any body. Braces inside
// parentheses before the body (a default value, an object type) do not
// open it.
func (s *braceScan) bracket(c byte, i int) bool {
	switch {
	case !s.opened && (c == '(' || c == '['):
		s.paren++
	case !s.opened && (c == ')' || c == ']'):
		s.paren--
	case c == '{':
		if !s.opened && s.paren > 0 {
			return false // an object in the parameters
		}
		s.depth++
		s.opened = true
	case c == '}':
		if !s.opened && s.paren > 0 {
			return false
		}
		s.depth--
		return s.depth <= 0 && !(s.opened && s.depth == 0 && goesOn(s.content, s.li, i+1, s.line))
	case c == ';':
		return !s.opened && s.paren <= 0
	}
	return false
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
