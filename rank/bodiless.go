package rank

import "bytes"

// Bodiless reports whether the first unit of c is a function or method
// declared without a body: an interface's or a trait's method, an
// abstract method, a C prototype. Its code lines (comments aside, as
// codeLines reads them) hold a "(" and no "{", and the last ends with
// ";". Such a unit states what an API promises; the code that does it
// is elsewhere.
func Bodiless(c *Cand) bool {
	kind, text := c.Meta.Kind, c.Text
	if len(c.Meta.Parts) > 0 {
		first := c.Meta.Parts[0]
		kind, text = first.Kind, LinesOf(c.Text, c.Meta.Start, first.Start, first.End)
	}
	return DeclaredOnly(kind, text)
}

// DeclaredOnly is Bodiless for one unit of kind whose lines are text.
func DeclaredOnly(kind string, text []byte) bool {
	if kind != "func" && kind != "method" {
		return false
	}
	code := codeLines(text) // without a lone "{" or "}" line: looked for apart
	if len(code) == 0 || !bytes.HasSuffix(code[len(code)-1], []byte(";")) {
		return false
	}
	paren := false
	for _, l := range code {
		if bytes.IndexByte(l, '{') >= 0 {
			return false
		}
		paren = paren || bytes.IndexByte(l, '(') >= 0
	}
	for _, l := range bytes.Split(text, []byte("\n")) {
		if t := bytes.TrimSpace(l); bytes.Equal(t, []byte("{")) || bytes.Equal(t, []byte("}")) {
			return false // a C function's body opens on a line of its own
		}
	}
	return paren
}
