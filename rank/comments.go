package rank

import (
	"bytes"
	"unicode/utf8"
)

// Comments in the text score: a term on a comment line counts
// Params.CommentWeight of a term on a line of code. A unit's doc comment
// describes what it promises, at length on a public API (a Java class's
// Javadoc, a C header's prototypes); the code that does the work names
// what it does in its identifiers and calls. Coverage still counts a
// term wherever it is.

// hashComments are the languages whose "#" starts a comment; in C, C++
// and C# it starts a preprocessor line, which is code.
var hashComments = map[string]bool{"python": true, "ruby": true, "shell": true, "make": true,
	"yaml": true, "toml": true, "dockerfile": true, "perl": true, "r": true}

// dashComments are the languages whose "--" starts a comment; in C or
// JavaScript a line may start with a decrement.
var dashComments = map[string]bool{"sql": true, "lua": true, "haskell": true}

// noComments are the languages read whole as code: prose, data, markup.
var noComments = map[string]bool{"markdown": true, "text": true, "json": true, "html": true, "rst": true}

// commentLines returns the byte ranges, [start, end) in order, of the
// lines of text that are comments: a line comment (//, and "--" and "#"
// where dashComments and hashComments say so), a block comment's lines (/* to */, and a
// line that starts with "*" then a space, "/" or nothing: a chunk may
// begin inside a block), a Python docstring's lines. A line holding code
// and a trailing comment is code.
func commentLines(text []byte, lang string) [][2]int {
	if noComments[lang] {
		return nil
	}
	var out [][2]int
	inBlock, inDoc := false, false
	for start := 0; start < len(text); {
		end := len(text)
		if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		if !inBlock && !inDoc && isCodeLine(text[start:end]) {
			start = end + 1
			continue
		}
		t := bytes.TrimSpace(text[start:end])
		isComment := false
		switch {
		case inBlock:
			isComment = true
			inBlock = !bytes.Contains(t, []byte("*/"))
		case inDoc:
			isComment = true
			inDoc = !isDocQuote(t, false)
		case bytes.HasPrefix(t, []byte("/*")):
			isComment = true
			inBlock = !bytes.Contains(t[2:], []byte("*/"))
		case lang == "python" && isDocQuote(t, true):
			isComment = true
			inDoc = len(t) < 6 || !isDocQuote(t, false)
		case bytes.HasPrefix(t, []byte("//")), bytes.HasPrefix(t, []byte("--")) && dashComments[lang],
			len(t) > 0 && t[0] == '#' && hashComments[lang],
			len(t) > 0 && t[0] == '*' && (len(t) == 1 || t[1] == ' ' || t[1] == '/' || t[1] == '\t'):
			isComment = true
		}
		if isComment {
			if n := len(out); n > 0 && out[n-1][1] == start-1 {
				out[n-1][1] = end // one range for adjacent comment lines
			} else {
				out = append(out, [2]int{start, end})
			}
		}
		start = end + 1
	}
	return out
}

// isCodeLine reports whether line is blank or its first byte after
// white space is ASCII and starts no comment, no block and no docstring:
// a line commentLines need not trim (most lines of code).
func isCodeLine(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			continue
		case '/', '*', '-', '#', '"', '\'':
			return false
		}
		return c < utf8.RuneSelf
	}
	return true
}

// isDocQuote reports whether line t starts (or else ends) with a Python
// docstring's triple quote.
func isDocQuote(t []byte, starts bool) bool {
	for _, q := range [][]byte{[]byte(`"""`), []byte(`'''`)} {
		if starts && bytes.HasPrefix(t, q) || !starts && bytes.HasSuffix(t, q) {
			return true
		}
	}
	return false
}
