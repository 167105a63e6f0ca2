package chunk

import (
	"regexp"
	"strings"
)

// The outline of Rust: fns (any visibility, const/async/unsafe/extern),
// structs, enums, unions, traits with their default and required methods,
// impl blocks named after the type they implement (impl<T> Trait for
// Type<T> where ... is "Type"), modules, type aliases and macro_rules!
// (the fns a macro body defines are inside it). A fn that is test code by
// its attributes is of kind "test" (markRustTests).
func init() {
	const vis = `(?:pub(?:\s*\([^)]*\))?\s+)?`
	register(&outliner{style: braces, lineComment: "//", lifetimes: true, macroBody: true, finish: markRustTests, rules: []declRule{
		decl("func", `^\s*`+vis+`(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)`, "fn"),
		decl("$1", `^\s*`+vis+`(?:unsafe\s+)?(?:auto\s+)?(struct|enum|trait|union)\s+([A-Za-z_]\w*)`, "struct", "enum", "trait", "union"),
		decl("impl", `^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:!?[^{]*?\s+for\s+)?(?:&(?:'\w+\s+)?(?:mut\s+)?)?(?:dyn\s+)?([A-Za-z_][\w:]*)`, "impl"),
		decl("module", `^\s*`+vis+`mod\s+([A-Za-z_]\w*)\s*\{`, "mod"),
		decl("macro", `^\s*(?:#\[macro_export\]\s*)?macro_rules!\s*([A-Za-z_]\w*)`, "macro_rules"),
		decl("type", `^\s*`+vis+`type\s+([A-Za-z_]\w*)\s*(?:<[^=]*>)?\s*=`, "type"),
	}}, "rust")
}

// rustTestAttr matches an attribute that makes an item test code: #[test],
// #[tokio::test(…)], #[cfg(test)], #[cfg(all(test, …))].
var rustTestAttr = regexp.MustCompile(`^#\[\s*(?:cfg\(\s*test\s*\)|cfg\(\s*all\(\s*test\s*[,)].*|(?:[A-Za-z_]\w*::)*test(?:\(.*\))?)\s*\]`)

// markRustTests gives the kind "test" (corpus.TestUnit) to each fn that
// carries a test attribute (`#[cfg(test)] async fn decode_fut` in an impl,
// `#[test] fn parses`) or lies inside an item that carries one (the fns
// of a `#[cfg(test)] mod unit_tests`, of a `#[cfg(test)] impl`). A
// container keeps its kind, which splits it into its members; a test
// module named tests or test is marked by its name as well.
func markRustTests(syms []Symbol, content []byte, li Lines) {
	var testEnds []int // the last lines of the test items open at a symbol
	for i := range syms {
		s := &syms[i]
		for len(testEnds) > 0 && testEnds[len(testEnds)-1] < s.Line {
			testEnds = testEnds[:len(testEnds)-1]
		}
		test := len(testEnds) > 0 || rustTestAttrAbove(content, li, s.Line)
		if test && (s.Kind == "func" || s.Kind == "method") {
			s.Kind = "test"
		}
		if test {
			testEnds = append(testEnds, s.EndLine)
		}
	}
}

// rustTestAttrAbove reports whether the attributes right above line l
// (doc comments and other attributes may come between) hold a test
// attribute.
func rustTestAttrAbove(content []byte, li Lines, l int) bool {
	for k := l - 1; k >= 1 && k > l-20; k-- {
		t := strings.TrimSpace(string(li.Text(content, k, k)))
		switch {
		case rustTestAttr.MatchString(t):
			return true
		case strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "//"):
			continue
		}
		return false
	}
	return false
}
