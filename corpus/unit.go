package corpus

import "strings"

// TestUnit reports whether a unit of code is a test although its file is
// not. Rust keeps a file's unit tests in the file itself, inside a module
// compiled only for tests (`#[cfg(test)] mod tests { … }`, by convention
// named tests or test); every unit in that module, and the module, is
// test code. symbol is the unit's name qualified by its containers, as
// the outlines write it (tests.parse_set_class, tests).
func TestUnit(lang, symbol string) bool {
	if lang != "rust" || symbol == "" {
		return false
	}
	for rest := symbol; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ".")
		if part == "tests" || part == "test" {
			return true
		}
	}
	return false
}
