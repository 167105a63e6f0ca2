package chunk

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// outlineExtractors list the symbols of a file in languages without a
// parser here; chunksFromSymbols turns the outline into chunks. Each is a
// line-based extractor: declarations are found by pattern (the rules of
// each language are in outline_<lang>.go), their end by the block style
// of the language (braces, indentation, or an "end" keyword). The choice
// of this approach over a parser library is measured in docs/outlines.md.
var outlineExtractors = map[string]func(content []byte, li Lines) []Symbol{}

// declRule finds one kind of declaration on a line. The name is the last
// group of re that matched.
type declRule struct {
	re   func() *regexp.Regexp // compiled at its first use (lazyRegexp)
	kind string                // "class", "func", ...; "$1" takes the kind from group 1
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
	// rename, when set, turns the name re matched into the unit's name,
	// or "" to turn the line down (a C++ specialization: formatter<std::tm>).
	rename func(string) string
	// keywordName: the name may be a keyword (notNames), as a
	// JavaScript method may be named throw or delete.
	keywordName bool
	// typeAbove: the declaration may begin on the line above, which
	// holds its return type (C's `static struct task *` then
	// `pick(struct rq *rq)`); see typeLineAbove.
	typeAbove bool
	// above, when set, must match the line above (which then begins the
	// declaration, as with typeAbove): Java's `public <T> HttpResponse<T>`
	// then `send(HttpRequest req, …) {`.
	above func() *regexp.Regexp
	// notHere, when set, turns down the declaration named name on the
	// line at by what lies around it (a C include guard's #define).
	notHere func(at lineAt, name string) bool
	// cppName: the name may be qualified with its class, or be an
	// operator (`widget::render`, `basic_sink<Mutex>::flush_`,
	// `widget::operator()`): the class becomes the owner and the
	// declaration a method (cppName).
	cppName bool
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
	// initLists: a constructor's member-initializer list may come before
	// its body, whose braces initialize members (C++'s `: sinks_{s} {`).
	initLists bool
	// header, when set, matches a line above a declaration that belongs
	// to it (C++'s `template <typename T>`); the unit starts there.
	header func() *regexp.Regexp
	// finish, when set, amends the outline once it is complete (Rust
	// marks its test functions: markRustTests).
	finish func(syms []Symbol, content []byte, li Lines)
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
	return declRule{re: lazyRegexp(re), kind: kind, need: need}
}

// lazyRegexp compiles pattern at its first use: the outliners' rules
// took 8-10 ms and 1.2 MB of memory at the start of every process,
// which may outline nothing (a warm `askls index` or `askls search`).
// TestEveryOutlineRuleCompiles compiles them all.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
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

// outliners are the registered outliners, for TestEveryOutlineRuleCompiles.
var outliners []*outliner

func register(o *outliner, langs ...string) {
	outliners = append(outliners, o)
	for _, l := range langs {
		outlineExtractors[l] = o.outline
	}
}

// outline lists the declarations of content in line order. A declaration
// inside another names it as its Container; one directly inside a
// container kind (class, impl, ...) is a method.
func (o *outliner) outline(content []byte, li Lines) []Symbol {
	var stack []int // open declarations: indexes in syms
	var syms []Symbol
	n := li.Count()
	quote := "" // Python: the triple quote of a string open across lines
	for l := 1; l <= n; l++ {
		raw := bytes.TrimRight(li.Text(content, l, l), "\r\n")
		if o.style == indentation {
			// A line inside a docstring or another multi-line string
			// declares nothing: its "def" is an example (jinja2's
			// BytecodeCache docstring defines MyCache.load_bytecode).
			open := quote
			if quote = tripleQuote(raw, quote); open != "" {
				continue
			}
		}
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
		if i := strings.LastIndex(name[:strings.IndexByte(name+"<", '<')], "::"); i >= 0 && !r.cppName {
			name = name[i+2:] // impl fmt::Display -> Display, not inside formatter<std::tm>
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
		if (r.typeAbove || r.above != nil) && l > 1 {
			if above, ok := typeLineAbove(li.Text(content, l-1, l-1)); ok {
				start, sig = l-1, above+" "+sig
			}
		}
		start = o.headerStart(content, li, start)
		syms = append(syms, Symbol{Name: name, Container: container, Kind: kind, Line: start, EndLine: end, Signature: sig})
		if end > l {
			stack = append(stack, len(syms)-1)
		}
	}
	if o.finish != nil {
		o.finish(syms, content, li)
	}
	return syms
}

// headerStart moves the first line of a declaration that starts on
// line start up over the header lines right above it (o.header).
func (o *outliner) headerStart(content []byte, li Lines, start int) int {
	if o.header == nil {
		return start
	}
	for start > 1 && o.header().Match(li.Text(content, start-1, start-1)) {
		start--
	}
	return start
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
func (o *outliner) declEnd(r declRule, kind string, trim, content []byte, li Lines, l int) int {
	n := li.Count()
	switch {
	case r.toEOF || (kind == "namespace" && bytes.HasSuffix(trim, []byte(";"))):
		return n
	case kind == "macro" && !o.macroBody:
		end := l
		for end < n && bytes.HasSuffix(bytes.TrimRight(li.Text(content, end, end), " \t\r\n"), []byte(`\`)) {
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

// typeLine reports whether the line that ends just before content[at]
// matches re and can be a return type (typeLineAbove) that is not a
// keyword (notNames: `return` above a call).
func typeLine(re *regexp.Regexp, content []byte, at int) bool {
	if at <= 0 || at > len(content) {
		return false
	}
	prev := content[:at-1]
	prev = prev[bytes.LastIndexByte(prev, '\n')+1:]
	t, ok := typeLineAbove(prev)
	if !ok || !re.MatchString(t) {
		return false
	}
	return !notNames[t[strings.LastIndexAny(t, " \t")+1:]]
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
func (o *outliner) match(line string, parent int, inContainer bool, syms []Symbol, content []byte, li Lines, l int) (r declRule, name, kind, owner string) {
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
	m := r.re().FindStringSubmatchIndex(line)
	if m == nil {
		return "", "", "", false
	}
	if g := len(m)/2 - 1; g > 0 && m[2*g] >= 0 {
		name = line[m[2*g]:m[2*g+1]]
	}
	if r.rename != nil && name != "" {
		if name = r.rename(name); name == "" {
			return "", "", "", false
		}
	}
	if r.qualified {
		if owner = line[m[2]:m[3]]; owner == "this" || (owner == "module" && name == "exports") {
			return "", "", "", false
		}
	}
	if r.cppName && name != "" {
		owner, name = cppName(line, m[len(m)-2], name)
	}
	if r.reject != nil && r.reject.MatchString(line[m[0]:m[1]]) {
		return "", "", "", false
	}
	if name == "" {
		name = r.defName
	}
	if !o.fits(r, at, name, owner, m[1]) {
		return "", "", "", false
	}
	kind = r.kind
	if kind == "$1" {
		kind = line[m[2]:m[3]]
	} else if r.cppName && owner != "" {
		kind = "method"
	}
	return name, kind, owner, true
}

// fits reports whether the declaration named name (of owner) that rule r
// matched on the line at, up to byte end, passes the rule's checks on its
// context: a name that is no keyword, a constructor's class, the line
// above, what follows the brackets (for a C++ constructor defined out of
// its class, `widget::widget(…)`, its initializer list may).
func (o *outliner) fits(r declRule, at lineAt, name, owner string, end int) bool {
	follows := r.follows
	if follows == "{" && r.cppName && owner != "" && owner == name {
		follows = "{:"
	}
	switch {
	case name == "" || ((r.member || o.checkNames) && notNames[name] && !r.keywordName):
		return false
	case r.ctor && (at.parent < 0 || at.syms[at.parent].Name != name):
		return false
	case r.above != nil && !typeLine(r.above(), at.content, at.offset):
		return false
	case follows != "" && !closedThen(at.content, at.offset+strings.LastIndexAny(at.line[:end], "(<"), follows):
		return false
	case r.notHere != nil && r.notHere(at, name):
		return false
	}
	return true
}

// closedThen reports whether the bracket at content[at] is closed within
// a few kilobytes and then followed by then: "(" right away, "=>" after an
// optional type annotation, "{" after C++'s qualifiers (cppTail), "{:"
// the same or a constructor's initializer list.
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
			if then == "{" || then == "{:" {
				// A C++ function's qualifiers and trailing return
				// type may come first; "{:" is a constructor's,
				// whose initializer list may follow.
				if rest = cppTail(rest); then == "{:" && initListRE().Match(rest) {
					return true
				}
				then = "{"
			}
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
