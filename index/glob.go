package index

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// globToRegexp turns a glob into an anchored regexp over slash paths:
// "**" crosses folders, "*" and "?" do not, [...] is a class. A glob with
// no slash matches the base name at any depth ("*.go").
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
				i++
				if i+1 < len(glob) && glob[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(glob[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(string(glob[i])))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// compileGlob returns a regexp for glob (globToRegexp: no braces). Only
// index/search.go uses it, for --path, until it moves to newPathGlob (the
// matcher of every other glob); it is not cached.
func compileGlob(glob string) (*regexp.Regexp, error) {
	return regexp.Compile("^" + globToRegexp(glob) + "$")
}

// pathGlob matches slash paths against a glob in doublestar syntax
// (github.com/bmatcuk/doublestar): "**" crosses folders, "*" and "?" do
// not, "[abc]", "[!abc]" and "[^abc]" are classes, "{go,ts}" are
// alternatives, "\" escapes. A glob with no slash matches the base name
// at any depth ("*.go" is "**/*.go"). Files, Grep (list_files, grep's
// path_glob) match with it; search's --path should too (see compileGlob).
type pathGlob struct{ pattern string }

// MatchString reports whether the slash path p matches.
func (g *pathGlob) MatchString(p string) bool {
	ok, _ := doublestar.Match(g.pattern, p)
	return ok
}

// maxCachedGlobs bounds the cache of parsed globs: they come from
// clients and models, so their number is not bounded by the workspace.
const maxCachedGlobs = 256

var (
	pathGlobMu    sync.Mutex
	pathGlobCache = map[string]*pathGlob{}
)

// newPathGlob checks glob and returns its matcher, or an error saying
// what is wrong with it.
func newPathGlob(glob string) (*pathGlob, error) {
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
	g = &pathGlob{pattern: pattern}
	pathGlobMu.Lock()
	if len(pathGlobCache) >= maxCachedGlobs {
		clear(pathGlobCache)
	}
	pathGlobCache[glob] = g
	pathGlobMu.Unlock()
	return g, nil
}
