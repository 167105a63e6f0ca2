package walk

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// globToRegexp turns a glob into an anchored regexp over slash paths, with
// git's wildmatch rules: "**" as a whole segment ("**/x", "x/**",
// "a/**/b") crosses folders, any other "*" and "?" do not, "[...]" is a
// class ("[!...]" or "[^...]" negated, a ']' first is literal, "\"
// escapes inside it too), "\" escapes the next character. A glob with no
// slash matches the base name at any depth ("*.go").
func globToRegexp(glob string) string {
	var b strings.Builder
	if !strings.Contains(glob, "/") {
		b.WriteString("(?:.*/)?")
	}
	glob = strings.TrimPrefix(glob, "/")
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				segStart := i == 0 || glob[i-1] == '/'
				j := i
				for j < len(glob) && glob[j] == '*' {
					j++
				}
				segEnd := j == len(glob) || glob[j] == '/'
				i = j - 1
				switch {
				case segStart && segEnd && j < len(glob):
					i++ // the slash
					b.WriteString("(?:.*/)?")
				case segStart && segEnd:
					b.WriteString(".*")
				default:
					b.WriteString("[^/]*") // "a**b" is "a*b"
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			class, n, ok := globClass(glob[i:])
			if !ok {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(class)
			i += n - 1
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(quoteByte(glob[i]))
			}
		default:
			b.WriteString(quoteByte(c))
		}
	}
	return b.String()
}

// quoteByte is byte c of a glob as a literal in a regexp: a byte of a
// UTF-8 sequence as it is, so that the sequence stays one character
// (string(c) would make it another one: 0xC3 would be "Ã").
func quoteByte(c byte) string {
	if c >= utf8.RuneSelf {
		return string([]byte{c})
	}
	return regexp.QuoteMeta(string(c))
}

// globClass reads the class at the start of s ("[...]") and returns it
// as a regexp class and its length in s; ok is false when it is not
// closed.
func globClass(s string) (string, int, bool) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteString(quoteByte(s[i])) // literal, never a range
		default:
			range_ := c == '-' && !first && i+1 < len(s) && s[i+1] != ']'
			if strings.IndexByte(`\]^[-`, c) >= 0 && !range_ {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		first = false
	}
	return "", 0, false
}

// Glob matches slash paths against a glob in doublestar syntax
// (github.com/bmatcuk/doublestar): "**" crosses folders, "*" and "?" do
// not, "[abc]", "[!abc]" and "[^abc]" are classes, "{go,ts}" are
// alternatives, "\" escapes. A glob with no slash matches the base name
// at any depth ("*.go" is "**/*.go"). Every glob a user or a model
// writes matches with it: Files, Grep (list_files, grep's path_glob) and
// Search's --path.
type Glob struct{ pattern string }

// MatchString reports whether the slash path p matches.
func (g *Glob) MatchString(p string) bool {
	ok, _ := doublestar.Match(g.pattern, p)
	return ok
}

// maxCachedGlobs bounds the cache of parsed globs: they come from
// clients and models, so their number is not bounded by the workspace.
const maxCachedGlobs = 256

var (
	pathGlobMu    sync.Mutex
	pathGlobCache = map[string]*Glob{}
)

// NewGlob checks glob and returns its matcher, or an error saying
// what is wrong with it.
func NewGlob(glob string) (*Glob, error) {
	pathGlobMu.Lock()
	g, ok := pathGlobCache[glob]
	pathGlobMu.Unlock()
	if ok {
		return g, nil
	}
	pattern := strings.TrimPrefix(glob, "/")
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, fmt.Errorf("not a valid glob (an unclosed '[' or '{', or a trailing '\\')")
	}
	g = &Glob{pattern: pattern}
	pathGlobMu.Lock()
	if len(pathGlobCache) >= maxCachedGlobs {
		clear(pathGlobCache)
	}
	pathGlobCache[glob] = g
	pathGlobMu.Unlock()
	return g, nil
}
