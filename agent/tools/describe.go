package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Describe is a short form of a call for a refusal's "searched" list.
func Describe(name string, a Args) string {
	var parts []string
	for _, k := range []string{"query", "pattern", "path", "glob", "name", "path_glob"} {
		if v, ok := a[k]; ok {
			parts = append(parts, fmt.Sprintf("%q", shorten(fmt.Sprint(v), maxDescribed)))
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// maxDescribed caps each argument quoted in a refusal's "Searched:" line:
// a 10,000-character question is searched, not repeated back in full.
const maxDescribed = 80

// shorten cuts s to at most n runes, ending it with "…" when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
