package chunk

import "bytes"

// The outline of Python: classes (nested ones too) and functions, async or
// not; a def directly in a class is a method. Decorators go with the
// unit below them (commentStart).
func init() {
	register(&outliner{style: indentation, lineComment: "#", rules: []declRule{
		decl("func", `^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*[\[(]`, "def"),
		decl("class", `^\s*class\s+([A-Za-z_]\w*)`, "class"),
	}}, "python")
}

// pythonHeaderEnd finds the line where the header of the Python block
// that starts on line l ends: its ':' outside brackets, strings and
// comments (a parameter's annotation, a default dict, a slice are inside
// brackets). inline is true when code follows that ':' on its line: the
// body is that line ("def __get__(self) -> int: ..." under @overload,
// "class Empty: pass"). ok is false when no header ends within 30 lines.
func pythonHeaderEnd(content []byte, li Lines, l int) (k int, inline, ok bool) {
	depth := 0
	for k := l; k <= li.Count() && k < l+30; k++ {
		t := bytes.TrimRight(li.Text(content, k, k), " \t\r\n")
	line:
		for i := 0; i < len(t); i++ {
			switch c := t[i]; c {
			case '#':
				break line
			case '"', '\'':
				q := []byte{c}
				if bytes.HasPrefix(t[i:], []byte{c, c, c}) {
					q = []byte{c, c, c}
				}
				j := bytes.Index(t[i+len(q):], q)
				if j < 0 {
					break line // a string open across lines: no header ends in it
				}
				i += len(q) + j + len(q) - 1
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ':':
				if depth > 0 || bytes.HasPrefix(t[i:], []byte(":=")) {
					continue
				}
				rest := bytes.TrimSpace(t[i+1:])
				return k, len(rest) > 0 && rest[0] != '#', true
			}
		}
	}
	return l, false, false
}
