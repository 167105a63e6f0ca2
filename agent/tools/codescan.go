package tools

import (
	"path"
	"sort"
	"strings"
	"unicode/utf8"
)

// Prose are the byte ranges of a file that are not code: comments
// and string literals (docstrings and doctests included), found by a
// light lexer that knows the comment and string forms of the language
// family of the file's extension. It is what keeps call-site lists to
// real calls: a name in a comment, a string or a `>>> f(x)` doctest line
// is not a call.
type Prose struct {
	ranges [][2]int // sorted, half-open [start, end)
	starts []int    // starts[i] is the offset of line i+1
}

// inProse says whether byte col (0-based) of line (1-based) lies in a
// comment or a string.
func (pr Prose) In(line, col int) bool {
	if line < 1 || line > len(pr.starts) {
		return false
	}
	off := pr.starts[line-1] + col
	i := sort.Search(len(pr.ranges), func(i int) bool { return pr.ranges[i][1] > off })
	return i < len(pr.ranges) && pr.ranges[i][0] <= off
}

// syntax is the comment and string forms of a language family.
type syntax struct {
	line      []string // line comments: "//", "#", "--"
	blockOpen string   // "/*"
	blockEnd  string   // "*/"
	triple    bool     // Python's """ and ''' strings
	backtick  bool     // ` strings (Go raw strings, JavaScript templates), may span lines
	charQuote bool     // ' is a character literal only when it closes at once ('a', '\n'); else a plain mark (Rust lifetimes)
}

var (
	cLike  = syntax{line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", backtick: true, charQuote: true}
	hashes = syntax{line: []string{"#"}, triple: true}
)

// syntaxOf picks the lexer for a file by its extension.
func syntaxOf(p string) syntax {
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".pyi", ".rb", ".sh", ".bash", ".pl", ".r", ".yaml", ".yml", ".toml", ".cfg", ".mk":
		return hashes
	case ".lua", ".sql", ".hs":
		return syntax{line: []string{"--"}}
	case ".go", ".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".cxx", ".hh", ".hxx", ".ipp", ".tpp", ".tcc", ".inl", ".java", ".kt", ".kts", ".scala", ".cs", ".swift", ".dart":
		s := cLike
		s.backtick = strings.ToLower(path.Ext(p)) == ".go"
		return s
	default: // JavaScript, TypeScript and the unknown: C-like with template strings
		s := cLike
		s.charQuote = false
		return s
	}
}

// ScanProse finds the comments and strings of content.
func ScanProse(p string, content []byte) Prose {
	return scanProseUpTo(p, content, len(content))
}

// scanProseUpTo finds the comments and strings of content that start
// before offset limit (a search for names needs no further), and the
// lines up to there.
func scanProseUpTo(p string, content []byte, limit int) Prose {
	sx := syntaxOf(p)
	opens := sx.openers()
	s := string(content)
	var out [][2]int
	n := len(s)
	limit = min(limit, n)
	for i := 0; i < limit; {
		c := s[i]
		if !opens[c] {
			i++
			for i < limit && !opens[s[i]] {
				i++
			}
			continue
		}
		switch {
		case sx.blockOpen != "" && strings.HasPrefix(s[i:], sx.blockOpen):
			j := closedAt(s, i+len(sx.blockOpen), sx.blockEnd)
			out = append(out, [2]int{i, j})
			i = j
		case hasAnyPrefix(s[i:], sx.line):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = n - i
			}
			out = append(out, [2]int{i, i + j})
			i += j
		case sx.triple && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)):
			j := closedAt(s, i+3, s[i:i+3])
			out = append(out, [2]int{i, j})
			i = j
		case c == '`' && sx.backtick:
			j := closedAt(s, i+1, "`")
			out = append(out, [2]int{i, j})
			i = j
		case c == '"' || c == '\'' || (c == '`' && !sx.backtick):
			if c == '\'' && sx.charQuote {
				if j := charLiteralEnd(s, i); j > 0 {
					out = append(out, [2]int{i, j})
					i = j
					continue
				}
				i++
				continue
			}
			j := stringEnd(s, i, c)
			out = append(out, [2]int{i, j})
			i = j
		default:
			i++
		}
	}
	starts := []int{0}
	for i := 0; i < limit; {
		j := strings.IndexByte(s[i:limit], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return Prose{ranges: out, starts: starts}
}

// closedAt is the end of the first closer in s at or after from, past the
// closer; len(s) when it never closes.
func closedAt(s string, from int, closer string) int {
	if end := strings.Index(s[from:], closer); end >= 0 {
		return from + end + len(closer)
	}
	return len(s)
}

// openers are the bytes a comment or a string of sx can start with.
func (sx syntax) openers() *[256]bool {
	var t [256]bool
	t['"'], t['\''], t['`'] = true, true, true
	if sx.blockOpen != "" {
		t[sx.blockOpen[0]] = true
	}
	for _, l := range sx.line {
		t[l[0]] = true
	}
	return &t
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// stringEnd is the offset after the string literal opened by quote q at
// i: the next unescaped q, or the end of the line for an unterminated one
// (a backtick string in JavaScript may span lines).
func stringEnd(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			if q != '`' {
				return j
			}
		}
	}
	return len(s)
}

// charLiteralEnd is the offset after a character literal at i ('a',
// ' ', '\n', '\u00e9', '😀'), or 0 when the quote opens none (a Rust
// lifetime 'a).
func charLiteralEnd(s string, i int) int {
	if i+1 >= len(s) || s[i+1] == '\n' {
		return 0
	}
	if s[i+1] == '\\' {
		for j := i + 3; j < len(s) && j <= i+12 && s[j] != '\n'; j++ {
			if s[j] == '\'' {
				return j + 1
			}
		}
		return 0
	}
	_, size := utf8.DecodeRuneInString(s[i+1:])
	if j := i + 1 + size; j < len(s) && s[j] == '\'' {
		return j + 1
	}
	return 0
}
