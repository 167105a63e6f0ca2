package index

import (
	"regexp"
	"strings"
	"sync"
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

var globCache sync.Map // glob -> *regexp.Regexp

// compileGlob returns the matcher for glob, or an error naming it.
func compileGlob(glob string) (*regexp.Regexp, error) {
	if re, ok := globCache.Load(glob); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile("^" + globToRegexp(glob) + "$")
	if err != nil {
		return nil, err
	}
	globCache.Store(glob, re)
	return re, nil
}
