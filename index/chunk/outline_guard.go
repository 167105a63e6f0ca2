package chunk

import (
	"bytes"
	"strings"
)

// ifNotDefined matches a C preprocessor line that tests that a name is
// not defined (`#ifndef FOO_H`, `#if !defined(FOO_H)`, `#if !defined
// FOO_H`), a comment after it allowed; the name is in group 1 or 2.
var ifNotDefined = lazyRegexp(`^#\s*(?:ifndef\s+([A-Za-z_]\w*)|if\s*!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|\s+([A-Za-z_]\w*)))\s*(?:/[/*].*)?$`)

// includeGuard reports whether the #define of name on the line at is an
// include guard: it gives the name no value (a comment may follow), and
// the line above it (blank lines aside) tests that the same name is not
// defined. A guard is the file's head, not a unit: as a two-line unit
// named like its file (call_graph_h) it matched every question that
// named the file's subject.
func includeGuard(at lineAt, name string) bool {
	line := strings.TrimSpace(at.line)
	rest := strings.TrimSpace(line[strings.Index(line, "define")+len("define"):])
	rest = strings.TrimSpace(strings.TrimPrefix(rest, name))
	if rest != "" && !strings.HasPrefix(rest, "//") && !strings.HasPrefix(rest, "/*") {
		return false
	}
	m := ifNotDefined().FindSubmatch(lineAbove(at.content, at.offset))
	if m == nil {
		return false
	}
	for _, g := range m[1:] {
		if string(g) == name {
			return true
		}
	}
	return false
}

// lineAbove is the last line with text before the line that starts at
// content[at], trimmed; nil when there is none.
func lineAbove(content []byte, at int) []byte {
	end := at - 1 // the newline that ends the line above
	for end > 0 {
		start := bytes.LastIndexByte(content[:end], '\n') + 1
		if line := bytes.TrimSpace(content[start:end]); len(line) > 0 {
			return line
		}
		end = start - 1
	}
	return nil
}
