package index

import (
	"bytes"
	"regexp"
	"strings"
)

// outlineExtractors list the symbols of a file in languages without a
// parser here; chunksFromSymbols turns the outline into chunks. Each is a
// careful line-based extractor: declarations are found by pattern, their
// end by the block style of the language (braces, indentation, or an
// "end" keyword).
var outlineExtractors = map[string]func(content []byte, li lineIndex) []Symbol{}

// declRule finds one kind of declaration on a line.
type declRule struct {
	re   *regexp.Regexp
	kind string // "class", "func", ...; "$1" takes the kind from group 1
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
	// methodRules apply only inside a container (class bodies).
	methodRules []declRule
	// lineComment starts a comment the brace counter skips ("//", "#").
	lineComment string
}

// containerKinds hold methods.
var containerKinds = map[string]bool{"class": true, "interface": true, "struct": true, "trait": true,
	"impl": true, "module": true, "namespace": true, "enum": true, "record": true, "object": true}

// notNames are keywords that method patterns must not take for names.
var notNames = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"else": true, "new": true, "do": true, "try": true, "function": true, "sizeof": true, "delete": true, "throw": true,
	"case": true, "using": true, "lock": true, "foreach": true, "elif": true, "until": true, "unless": true, "with": true}

func decl(kind, re string) declRule { return declRule{re: regexp.MustCompile(re), kind: kind} }

func init() {
	jsRules := []declRule{
		decl("func", `^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)`),
		decl("class", `^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)`),
		decl("interface", `^\s*(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)`),
		decl("type", `^\s*(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=`),
		decl("enum", `^\s*(?:export\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)`),
		decl("func", `^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)`),
	}
	jsMethods := []declRule{
		decl("method", `^\s+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?::\s*[^={;]+)?\{\s*$`),
	}
	js := &outliner{rules: jsRules, methodRules: jsMethods, style: braces, lineComment: "//"}
	register(js, "javascript", "typescript")

	register(&outliner{style: indentation, lineComment: "#", rules: []declRule{
		decl("func", `^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(`),
		decl("class", `^\s*class\s+([A-Za-z_]\w*)`),
	}}, "python")

	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		decl("func", `^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)`),
		decl("$1", `^\s*(?:pub(?:\([^)]*\))?\s+)?(struct|enum|trait|union)\s+([A-Za-z_]\w*)`),
		decl("impl", `^\s*(?:unsafe\s+)?impl(?:<[^{]*?>)?\s+(?:[^{]*?\s+for\s+)?([A-Za-z_][\w:]*)`),
		decl("module", `^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*\{`),
		decl("macro", `^\s*macro_rules!\s*([A-Za-z_]\w*)`),
		decl("type", `^\s*(?:pub(?:\([^)]*\))?\s+)?type\s+([A-Za-z_]\w*)\s*(?:<[^=]*>)?\s*=`),
	}}, "rust")

	javaLike := []declRule{
		decl("$1", `^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|readonly|unsafe|new|file)\s+)*(class|interface|enum|record|struct)\s+([A-Za-z_]\w*)`),
		decl("namespace", `^\s*namespace\s+([\w.]+)`),
	}
	javaMethods := []declRule{
		decl("method", `^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|sealed|extern|unsafe|new|default|strictfp)\s+)*(?:<[^>]+>\s+)?[\w<>\[\],.?]+(?:\s*<[^>]*>)?\s+([A-Za-z_]\w*)\s*\([^;]*$`),
		decl("method", `^\s*(?:(?:public|private|protected|internal)\s+)([A-Z]\w*)\s*\([^;]*$`), // constructors
	}
	register(&outliner{style: braces, lineComment: "//", rules: javaLike, methodRules: javaMethods}, "java", "csharp", "kotlin")

	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		decl("$1", `^\s*(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(struct|class|union|enum|namespace)(?:\s+class)?\s+([A-Za-z_]\w*)[^;]*$`),
		decl("func", `^(?:(?:static|inline|extern|const|unsigned|signed|struct|enum|virtual|constexpr|explicit)\s+)*[A-Za-z_][\w:<>,]*[\s\*&]+\**([A-Za-z_][\w:~]*)\s*\([^;]*$`),
		decl("macro", `^\s*#\s*define\s+([A-Za-z_]\w*)`),
	}, methodRules: []declRule{
		decl("method", `^\s+(?:(?:static|inline|virtual|const|explicit|constexpr)\s+)*[A-Za-z_][\w:<>,]*[\s\*&]+\**([A-Za-z_~]\w*)\s*\([^;]*\)\s*(?:const\s*)?(?:override\s*)?\{?\s*$`),
	}}, "c", "cpp")

	register(&outliner{style: endKeyword, lineComment: "#", rules: []declRule{
		decl("method", `^\s*def\s+(?:self\.)?([\w?!=\[\]<>+\-*/%]+)`),
		decl("class", `^\s*class\s+([A-Z][\w:]*)`),
		decl("module", `^\s*module\s+([A-Z][\w:]*)`),
	}}, "ruby")

	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		decl("$1", `^\s*(?:(?:abstract|final|readonly)\s+)*(class|interface|trait|enum)\s+([A-Za-z_]\w*)`),
		decl("func", `^\s*(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?([A-Za-z_]\w*)`),
	}}, "php")

	register(&outliner{style: endKeyword, lineComment: "--", rules: []declRule{
		decl("func", `^\s*(?:local\s+)?function\s+([\w.:]+)`),
		decl("func", `^\s*(?:local\s+)?([\w.]+)\s*=\s*function\b`),
	}}, "lua")

	register(&outliner{style: braces, lineComment: "#", rules: []declRule{
		decl("func", `^\s*function\s+([\w.:-]+)`),
		decl("func", `^\s*([A-Za-z_][\w.:-]*)\s*\(\)\s*\{?`),
	}}, "shell")
}

func register(o *outliner, langs ...string) {
	for _, l := range langs {
		outlineExtractors[l] = o.outline
	}
}

// outline lists the declarations of content in line order.
func (o *outliner) outline(content []byte, li lineIndex) []Symbol {
	type open struct {
		name string
		end  int
	}
	var stack []open
	var syms []Symbol
	n := li.lines()
	for l := 1; l <= n; l++ {
		line := string(bytes.TrimRight(li.text(content, l, l), "\r\n"))
		if len(line) > 1000 {
			continue // minified code
		}
		for len(stack) > 0 && stack[len(stack)-1].end < l {
			stack = stack[:len(stack)-1]
		}
		container := ""
		if len(stack) > 0 {
			container = stack[len(stack)-1].name
		}
		rules := o.rules
		if container != "" && len(o.methodRules) > 0 {
			rules = append(append([]declRule(nil), o.methodRules...), o.rules...)
		}
		name, kind := "", ""
		for _, r := range rules {
			m := r.re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			name, kind = m[len(m)-1], r.kind
			if kind == "$1" {
				kind = m[1]
			}
			if notNames[name] {
				name = ""
				continue
			}
			break
		}
		if name == "" {
			continue
		}
		if kind == "func" && container != "" {
			kind = "method"
		}
		if kind == "method" && container == "" {
			kind = "func"
		}
		end := l
		if kind != "macro" {
			end = o.blockEnd(content, li, l)
		}
		sig := strings.TrimSpace(line)
		sig = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(sig, "{")), ":")
		if len(sig) > 200 {
			sig = sig[:200] + "…"
		}
		syms = append(syms, Symbol{Name: name, Container: container, Kind: kind, Line: l, EndLine: end, Signature: sig})
		if containerKinds[kind] && end > l {
			stack = append(stack, open{name: name, end: end})
		}
	}
	return syms
}

// blockEnd finds the last line of the declaration that starts on line l.
func (o *outliner) blockEnd(content []byte, li lineIndex, l int) int {
	switch o.style {
	case indentation:
		return indentEnd(content, li, l)
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

// braceEnd counts braces from line l, skipping strings and comments. A
// declaration that reaches ';' before any '{' ends there.
func (o *outliner) braceEnd(content []byte, li lineIndex, l int) int {
	start := li[l-1]
	depth := 0
	opened := false
	line := l
	limit := min(len(content), start+1<<20)
	for i := start; i < limit; i++ {
		c := content[i]
		switch {
		case c == '\n':
			line++
			if !opened && line > l+20 {
				return l // no body in sight
			}
		case o.lineComment != "" && bytes.HasPrefix(content[i:], []byte(o.lineComment)):
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				return line
			}
			i += j - 1
		case c == '/' && i+1 < len(content) && content[i+1] == '*':
			j := bytes.Index(content[i+2:], []byte("*/"))
			if j < 0 {
				return line
			}
			line += bytes.Count(content[i:i+2+j], []byte{'\n'})
			i += j + 3
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < limit && content[j] != c && (content[j] != '\n' || c == '`') {
				if content[j] == '\\' {
					j++
				}
				j++
			}
			if j < limit {
				line += bytes.Count(content[i:j], []byte{'\n'})
				i = j
			}
		case c == '{':
			depth++
			opened = true
		case c == '}':
			depth--
			if opened && depth <= 0 {
				return line
			}
		case c == ';' && !opened && depth == 0:
			return line
		}
	}
	return line
}

// indentEnd: the block of line l ends before the next non-blank line
// indented no deeper than l, once the header (up to a line ending in ':')
// is over.
func indentEnd(content []byte, li lineIndex, l int) int {
	indent := indentOf(li.text(content, l, l))
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
	end := k
	for m := k + 1; m <= li.lines(); m++ {
		t := li.text(content, m, m)
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		if indentOf(t) <= indent {
			break
		}
		end = m
	}
	return end
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
