package chunk

import (
	"bytes"
	"strings"
)

// The end of a declaration in a language with braces (outliner.style
// braces): braceEnd reads from the declaration's first byte, over
// strings, comments and regexp literals, until its block closes.

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
func (o *outliner) braceEnd(content []byte, li Lines, l int) int {
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
	li      Lines
	l       int // the declaration's first line
	start   int // its first byte
	limit   int // the byte where the scan gives up
	line    int // the line being read; the declaration's end once done
	depth   int // braces open in the body
	paren   int // parentheses and brackets open before the body
	opened  bool
	// inits counts the braces open in a C++ initializer list
	// (`: sinks_{s}`), once initList says one has started.
	inits    int
	initList bool
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
	if s.o.initLists && !s.opened && s.initializer(c, i) {
		return false
	}
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

// initializer reports whether the byte c at content[i] belongs to a C++
// constructor's member-initializer list, before its body: the colon that
// starts it, or a brace of a member's initializer (`sinks_{s}`), which
// opens no body.
func (s *braceScan) initializer(c byte, i int) bool {
	switch {
	case c == ':' && s.paren <= 0 && !s.initList:
		s.initList = initListStarts(s.content, s.start, i)
		return s.initList
	case c == '{' && s.initList && s.paren <= 0 && (s.inits > 0 || braceInitializes(s.content, i)):
		s.inits++
		return true
	case c == '}' && s.inits > 0:
		s.inits--
		return true
	}
	return false
}

// goesOn reports whether a declaration goes on after the brace that
// closed a block at content[i-1] on line l: "} else {" (a Kotlin
// expression body "= if (...) {...} else {...}"), "}.also {", a line
// that opens another block (the block closed was an object type in a
// signature), or a next line starting with else, catch, finally or a
// call.
func goesOn(content []byte, li Lines, i, l int) bool {
	rest := content[i:]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	rest = bytes.TrimSpace(rest)
	if bytes.HasSuffix(rest, []byte("{")) {
		return true // the braces closed were a type: "): T & { signal: S } {"
	}
	if len(rest) == 0 {
		if l >= li.Count() {
			return false
		}
		for k := l + 1; k <= li.Count() && k < l+3; k++ {
			if rest = bytes.TrimSpace(li.Text(content, k, k)); len(rest) > 0 {
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
func continues(content []byte, li Lines, l int) bool {
	t := strings.TrimSpace(string(li.Text(content, l, l)))
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
	for k := l + 1; k <= li.Count() && k < l+20; k++ {
		next := strings.TrimSpace(string(li.Text(content, k, k)))
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
