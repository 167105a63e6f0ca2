package citations

import "strings"

// An answer is shown as markdown (the VS Code panel, the answer files the
// language server writes, any client that renders it). Its only links are
// its checked markers: everything else that markdown would make active is
// escaped with a backslash outside code, so that it shows as the text the
// model wrote:
//
//   - a '[' that does not start a checked marker: no link "[see](url)",
//     image "![b](url)", reference link "[x][y]" or definition "[x]: url";
//   - a '(' right after a ']': a marker is no link "[1](url)" even when the
//     target is too long or runs over a line to be stripped;
//   - a '<' before a letter, '/', '!' or '?': no raw HTML ("<img>",
//     "<a href=…>", "<script>", "<!-- -->") and no autolink "<http://…>".
//
// A byte the model already escaped (after an odd run of backslashes) is
// left as it is, and a backtick escaped so opens no code.

// escaped writes c escaped with a backslash, unless the backslashes just
// written already escape it.
func (r *Rewriter) escaped(out *strings.Builder, c byte) {
	if r.slashes%2 == 0 {
		r.write(out, `\`)
	}
	r.write(out, string([]byte{c}))
}

// opensHTML reports whether '<' followed by c may start an HTML tag, a
// comment, a declaration or an autolink.
func opensHTML(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!' || c == '?'
}

// Plain escapes what markdown would make active in text that is not an
// answer but is shown with one (the "Searched:" line of a refusal quotes
// the model's queries): every '[' and backtick, a '(' after a ']', a '<'
// before a letter, '/', '!' or '?'. Nothing is checked or removed.
func Plain(s string) string {
	var b strings.Builder
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		active := c == '[' || c == '`' || c == '(' && i > 0 && s[i-1] == ']' ||
			c == '<' && i+1 < len(s) && opensHTML(s[i+1])
		if active && slashes%2 == 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		if c == '\\' {
			slashes++
		} else {
			slashes = 0
		}
	}
	return b.String()
}
