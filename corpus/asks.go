package corpus

import (
	"slices"
	"strings"
)

// askPrefixes are the beginnings of the words with which a question asks
// for a class of file; a prefix matches a word and its stem alike
// ("vendored", "vendor"; "examples", "exampl").
var askPrefixes = map[Class][]string{
	Vendored:  {"vendor", "third", "bundl", "depend", "deps"},
	Packaging: {"build", "packag", "install", "releas", "docker", "makefile", "homebrew", "brew", "formula", "workflow", "deploy"},
	Example:   {"exampl", "sampl", "demo"},
}

// askWords are the words, whole (as written or stemmed), with which a
// question asks for a class of file whose prefixes would say too much
// ("ui" begins uint, "js" json, "cli" client).
var askWords = map[Class][]string{
	Asset: {"browser", "frontend", "front", "ui", "javascript", "js", "css", "stylesheet", "html", "dom", "jqueri", "jquery"},
	Tool:  {"command", "cli", "subcommand", "flag"},
}

// AsksFor returns the classes among Vendored, Packaging, Example, Asset
// and Tool that a question's words (lower case, as written or stemmed)
// ask for. Tests and documentation are asked for in index's query model,
// which knows more forms of them.
func AsksFor(words []string) Class {
	var c Class
	for class, ws := range askWords {
		for _, w := range words {
			if slices.Contains(ws, w) {
				c |= class
			}
		}
	}
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
