package corpus

import "testing"

func TestClassify(t *testing.T) {
	cases := map[string]Class{
		// Tests, by each language's convention.
		"pkg/foo_test.go":            Test,
		"lib/test_parse.py":          Test,
		"lib/parse_test.py":          Test,
		"src/app.spec.ts":            Test,
		"src/app.test.js":            Test,
		"src/main/kotlin/FooTest.kt": Test,
		"src/FooTests.cs":            Test,
		"lib/foo_spec.rb":            Test,
		"tests/helpers.rs":           Test,
		"a/__tests__/x.js":           Test,
		"testing/testing.go":         0, // Go's testing package is code
		"spec.go":                    0,
		// C and C++: a _test, _tests or _unittest stem, glibc's tst-.
		"src/parser_test.cc":        Test,
		"src/list_tests.c":          Test,
		"base/string_unittest.cpp":  Test,
		"lib/x_test.cxx":            Test,
		"malloc/tst-mallocstate.c":  Test,
		"malloc/tst_alloc_buffer.c": Test,
		"net/bpf/test_run.c":        0, // the kernel's BPF test runner is product code
		"src/test.c":                0,
		"malloc/malloc.c":           0,
		"src/latest.c":              0,
		"include/parser_test.h":     0, // a header, not a test file
		// Prose by extension, by name, by folder; code that shares a name.
		"README":        Prose,
		"docs/guide.md": Prose,
		"CHANGES.rst":   Prose,
		"SECURITY.md":   Prose,
		"LICENSE":       Prose,
		"security.py":   0,
		"license.go":    0,
		"changes.go":    0,
		"history.go":    0,
		"man/man1/ls.1": Prose,
		// Generated, declarations.
		"package-lock.json": Generated | Packaging*0,
		"dist/app.min.js":   Generated,
		"types/index.d.ts":  Decl,
		"typing/stub.pyi":   Decl,
		// Vendored and third-party code.
		"deps/jemalloc/src/arena.c":    Vendored,
		"third_party/zlib/inflate.c":   Vendored,
		"vendor/golang.org/x/net/a.go": Vendored,
		// Packaging and build, examples.
		"Formula/tool.rb":                      Packaging,
		"Makefile":                             Packaging,
		"Dockerfile":                           Packaging,
		"tool.gemspec":                         Packaging,
		".github/workflows/ci.yml":             Packaging,
		"src/formula/eval.rs":                  0, // only a top-level Formula/ is a tap
		"widget-1.2.dist-info/RECORD":          Packaging,
		"lib/Widget-1.2.egg-info/requires.txt": Prose | Packaging,
		"widget-1.2.dist-info/METADATA":        0, // the README: not packaging
		"lib/Widget-1.2.egg-info/PKG-INFO":     0,
		"examples/hello/main.go":               Example,
		"_examples/router.go":                  Example,
		"_demo/widget/main.go":                 Example,
		// A test suite's folder named by a part (a runner and fixtures
		// beside the code), not a word that holds "test".
		"internal/spec-test/run.go": Test,
		"integration_tests/api.py":  Test,
		"lib/latest/widget.js":      0,
		"contest/solver.c":          0,
		"src/testify/assert.go":     0,
		"src/router.go":             0,
	}
	for p, want := range cases {
		if got := Classify(p); got != want {
			t.Errorf("Classify(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestClassString(t *testing.T) {
	if got := (Test | Generated).String(); got != "test+generated" {
		t.Errorf("String = %q", got)
	}
	if got := (Asset | Tool).String(); got != "asset+tool" {
		t.Errorf("String = %q", got)
	}
	if got := Class(0).String(); got != "code" {
		t.Errorf("String = %q", got)
	}
	if !(Test | Prose).Has(Prose) || Class(0).Has(0) {
		t.Error("Has")
	}
}

func TestAsksFor(t *testing.T) {
	cases := []struct {
		words []string
		want  Class
	}{
		{[]string{"how", "is", "the", "session", "stored"}, 0},
		{[]string{"vendored", "allocator"}, Vendored},
		{[]string{"build", "docker", "imag"}, Packaging},
		{[]string{"exampl", "server"}, Example},
		// Whole words only: "ui" does not ask for assets in "uint",
		// nor "cli" for tools in "client".
		{[]string{"browser", "page"}, Asset},
		{[]string{"ui", "css"}, Asset},
		{[]string{"uint", "json", "domain", "frontier"}, 0},
		{[]string{"cli", "flag"}, Tool},
		{[]string{"subcommand"}, Tool},
		{[]string{"client", "click", "commit"}, 0},
	}
	for _, c := range cases {
		if got := AsksFor(c.words); got != c.want {
			t.Errorf("AsksFor(%q) = %v, want %v", c.words, got, c.want)
		}
	}
}
