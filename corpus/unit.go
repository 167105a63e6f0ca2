package corpus

import "strings"

// TestUnit reports whether a unit of code is a test although its file is
// not. Rust keeps a file's unit tests in the file itself, inside a module
// compiled only for tests (`#[cfg(test)] mod tests { … }`, by convention
// named tests or test); every unit in that module, and the module, is
// test code. symbol is the unit's name qualified by its containers, as
// the outlines write it (tests.parse_set_class, tests). A unit of kind
// "test" is one too: the outlines give that kind to a function that is
// test code by its attributes (Rust's `#[test]`, or `#[cfg(test)]` on it
// or on an item around it: index/chunk's markRustTests).
func TestUnit(lang, symbol, kind string) bool {
	if kind == "test" {
		return true
	}
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
