package corpus

import "strings"

// askPrefixes are the beginnings of the words with which a question asks
// for a class of file; a prefix matches a word and its stem alike
// ("vendored", "vendor"; "examples", "exampl").
var askPrefixes = map[Class][]string{
	Vendored:  {"vendor", "third", "bundl", "depend", "deps"},
	Packaging: {"build", "packag", "install", "releas", "docker", "makefile", "homebrew", "brew", "formula", "workflow", "deploy"},
	Example:   {"exampl", "sampl", "demo"},
}

// AsksFor returns the classes among Vendored, Packaging and Example that
// a question's words (lower case, as written or stemmed) ask for. Tests
// and documentation are asked for in index's query model, which knows
// more forms of them.
func AsksFor(words []string) Class {
	var c Class
	for class, prefixes := range askPrefixes {
		for _, w := range words {
			for _, p := range prefixes {
				if strings.HasPrefix(w, p) {
					c |= class
				}
			}
		}
	}
	return c
}
