package corpus

import (
	"path"
	"regexp"
	"strings"
)

// Class is what kind of file a path is, as a set of flags: a file can be
// both a test and generated. The zero Class is implementation code.
type Class uint16

const (
	// Test: a test file or test data (foo_test.go, test_foo.py,
	// foo.spec.ts, FooTest.kt, foo_spec.rb, parser_test.cc, tst-foo.c,
	// files under tests/).
	Test Class = 1 << iota
	// Prose: documentation rather than code (Markdown, text, HTML, man
	// pages, README, CHANGELOG, LICENSE, files under docs/).
	Prose
	// Generated: output of a tool no one reads to learn the code (lock
	// files, source maps, minified files; a file whose head says a tool
	// wrote it is marked by the indexer, which reads it).
	Generated
	// Decl: a file that only declares code that lives elsewhere
	// (TypeScript's .d.ts, Python's .pyi stubs).
	Decl
	// Vendored: a copy of another project's code (vendor/, third_party/,
	// deps/, external/ and the like).
	Vendored
	// Packaging: how the project is built, packaged or released
	// (Makefile, Dockerfile, a Homebrew formula, package manifests, CI
	// workflows).
	Packaging
	// Example: example and demo programs (examples/, _examples/, demo/).
	Example
	// Asset: a web asset (JavaScript, CSS) under a folder of assets
	// (InAssetDir) of a project whose own language is another one: the
	// page script of a server's debugger. Classify cannot know the
	// project's language; index sets this flag (docs/ranking.md).
	Asset
	// Tool: a command-line tool shipped beside a library (InCommandDir:
	// cmd/, a *_cli folder) whose product is the library. Classify
	// cannot know what the root holds; index sets this flag.
	Tool
)

// classNames name the flags in the order of their bits, for String.
var classNames = []string{"test", "prose", "generated", "decl", "vendored", "packaging", "example", "asset", "tool"}

// String names the flags, "code" for none: "test+generated".
func (c Class) String() string {
	if c == 0 {
		return "code"
	}
	var parts []string
	for i, n := range classNames {
		if c&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "+")
}

// Has reports whether c holds every flag of x.
func (c Class) Has(x Class) bool { return c&x == x && x != 0 }

// Classify says what kind of file p is (a slash-separated path relative
// to its root) from its name alone.
func Classify(p string) Class {
	var c Class
	base := path.Base(p)
	lower := strings.ToLower(base)
	dirs := strings.Split(path.Dir(p), "/")
	if isTestName(base, lower) {
		c |= Test
	}
	if isProseName(lower) {
		c |= Prose
	}
	if isGeneratedName(lower) {
		c |= Generated
	}
	if isDeclName(lower) {
		c |= Decl
	}
	if isPackagingName(base, lower) {
		c |= Packaging
	}
	for i, d := range dirs {
		ld := strings.ToLower(d)
		switch {
		case testDirs[ld] || isTestSuiteDir(ld):
			c |= Test
		case proseDirs[ld] || isManDir(ld):
			c |= Prose
		case vendorDirs[ld]:
			c |= Vendored
		case exampleDirs[strings.TrimPrefix(ld, "_")]:
			c |= Example
		case packagingDirs[ld] && i == 0:
			c |= Packaging
		case ld == ".github" || ld == ".circleci" || ld == ".gitlab" || isPythonMetadataDir(ld) && !pythonReadmeNames[lower]:
			c |= Packaging
		}
	}
	return c
}

// testDirs hold tests by convention (JavaScript's test/ and __tests__/,
// Python's tests/, Ruby's spec/, Go's testdata/).
var testDirs = map[string]bool{"test": true, "tests": true, "__tests__": true, "spec": true, "testdata": true}

// isTestSuiteDir reports whether ld, a folder's name in lower case, names
// a test suite by a part of its name that hyphens or underscores set
// apart (integration-tests, unit_tests, spec-test, test-fixtures): a
// suite beside the code, with a runner and fixtures of its own.
func isTestSuiteDir(ld string) bool {
	if !strings.ContainsAny(ld, "-_") {
		return false
	}
	for _, part := range strings.FieldsFunc(ld, func(r rune) bool { return r == '-' || r == '_' }) {
		if part == "test" || part == "tests" {
			return true
		}
	}
	return false
}

// testClassRE matches the test classes of Java, Kotlin, Scala and C#
// (FooTest.java, FooTests.kt).
var testClassRE = regexp.MustCompile(`^[A-Z]\w*Tests?\.(java|kt|kts|scala|cs)$`)

// cTestStems end the stem of a C or C++ test file (parser_test.cc,
// list_tests.c, string_unittest.cpp: GoogleTest's and Chromium's
// conventions); glibc names its tests tst-*.c and tst_*.c. A test_ prefix
// is not one: the kernel's net/bpf/test_run.c is product code.
var cTestStems = []string{"_test", "_tests", "_unittest"}

// cExts are the extensions of C and C++ source files.
var cExts = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true}

// isCTestName reports whether lower, a base name in lower case, is a C or
// C++ test file by those conventions.
func isCTestName(lower string) bool {
	ext := path.Ext(lower)
	if !cExts[ext] {
		return false
	}
	stem := strings.TrimSuffix(lower, ext)
	if strings.HasPrefix(stem, "tst-") || strings.HasPrefix(stem, "tst_") {
		return true
	}
	for _, s := range cTestStems {
		if strings.HasSuffix(stem, s) && len(stem) > len(s) {
			return true
		}
	}
	return false
}

func isTestName(base, lower string) bool {
	switch {
	case isCTestName(lower):
		return true
	case strings.HasSuffix(lower, "_test.go"),
		strings.HasPrefix(lower, "test_") && strings.HasSuffix(lower, ".py"),
		strings.HasSuffix(lower, "_test.py"),
		strings.HasSuffix(lower, "_spec.rb"), strings.HasSuffix(lower, "_test.rb"),
		strings.Contains(lower, ".spec."), strings.Contains(lower, ".test."),
		testClassRE.MatchString(base):
		return true
	}
	return false
}

// proseExts are the extensions of documentation and prose.
var proseExts = []string{".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".asciidoc", ".html", ".htm", ".rdoc", ".textile", ".org"}

// proseStems are file names that hold prose whatever their extension, as
// long as they have none or a prose one (SECURITY.md, LICENSE, CHANGES;
// not security.py).
var proseStems = map[string]bool{"readme": true, "history": true, "changelog": true, "changes": true, "news": true,
	"license": true, "licence": true, "copying": true, "authors": true, "contributors": true, "contributing": true,
	"security": true, "notice": true, "code_of_conduct": true, "maintainers": true, "todo": true}

var proseDirs = map[string]bool{"docs": true, "doc": true, "documentation": true}

func isProseName(lower string) bool {
	for _, suf := range proseExts {
		if strings.HasSuffix(lower, suf) {
			return true
		}
	}
	stem, ext := lower, ""
	if i := strings.IndexByte(lower, '.'); i > 0 {
		stem, ext = lower[:i], lower[i:]
	}
	if proseStems[stem] && (ext == "" || ext == ".txt" || ext == ".md" || ext == ".rst") {
		return true
	}
	// A man page: name.1 … name.9.
	if n := len(lower); n > 2 && lower[n-2] == '.' && lower[n-1] >= '1' && lower[n-1] <= '9' {
		return true
	}
	return false
}

// isManDir: man1 … man9.
func isManDir(d string) bool {
	return len(d) == 4 && strings.HasPrefix(d, "man") && d[3] >= '1' && d[3] <= '9'
}

// generatedNames are lock files.
var generatedNames = map[string]bool{"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "go.sum": true,
	"cargo.lock": true, "poetry.lock": true, "composer.lock": true, "gemfile.lock": true, "npm-shrinkwrap.json": true}

func isGeneratedName(lower string) bool {
	return generatedNames[lower] || strings.HasSuffix(lower, ".map") || strings.HasSuffix(lower, ".min.js") ||
		strings.HasSuffix(lower, ".min.css") || strings.HasSuffix(lower, ".pb.go") || strings.HasSuffix(lower, "_pb2.py")
}

func isDeclName(lower string) bool {
	return strings.HasSuffix(lower, ".d.ts") || strings.HasSuffix(lower, ".d.mts") || strings.HasSuffix(lower, ".d.cts") || strings.HasSuffix(lower, ".pyi")
}

// vendorDirs hold copies of other projects.
var vendorDirs = map[string]bool{"vendor": true, "vendored": true, "third_party": true, "third-party": true, "thirdparty": true,
	"3rdparty": true, "deps": true, "external": true, "externals": true, "extern": true, "bower_components": true, "node_modules": true}

// exampleDirs hold example and demo programs; a leading underscore, which
// keeps a folder out of Go's build (_examples/, _demo/), is ignored.
var exampleDirs = map[string]bool{"example": true, "examples": true, "demo": true, "demos": true, "samples": true, "sample": true}

// packagingDirs, at the top of a root, hold packaging (a Homebrew tap's
// Formula/, Debian's debian/, container and CI set-ups).
var packagingDirs = map[string]bool{"formula": true, "debian": true, "packaging": true, "rpm": true,
	"snap": true, "docker": true, "ci": true, "build-aux": true}

// isPythonMetadataDir reports whether ld, a folder's name in lower case,
// holds an installed Python package's metadata (click-8.1.dist-info,
// Django-3.2.egg-info): its file list (RECORD, with a hash per file),
// requirements and entry points, beside the package's code wherever it
// is installed. Its METADATA or PKG-INFO (pythonReadmeNames) is the
// project's README and stays what its name makes it.
func isPythonMetadataDir(ld string) bool {
	return strings.HasSuffix(ld, ".dist-info") || strings.HasSuffix(ld, ".egg-info")
}

// pythonReadmeNames are the files of a package's metadata folder that
// hold its README.
var pythonReadmeNames = map[string]bool{"metadata": true, "pkg-info": true}

// packagingNames are build, packaging and release files.
var packagingNames = map[string]bool{"makefile": true, "gnumakefile": true, "dockerfile": true, "containerfile": true,
	"cmakelists.txt": true, "meson.build": true, "build": true, "build.bazel": true, "workspace": true, "pkgbuild": true,
	"jenkinsfile": true, "vagrantfile": true, "rakefile": true, "gemfile": true, "procfile": true, "justfile": true,
	"package.json": true, "cargo.toml": true, "go.mod": true, "pyproject.toml": true, "setup.py": true, "setup.cfg": true,
	"manifest.in": true, "tox.ini": true, "pom.xml": true, "build.gradle": true, "build.gradle.kts": true,
	"settings.gradle": true, ".travis.yml": true, ".gitlab-ci.yml": true, "appveyor.yml": true, "configure": true,
	"configure.ac": true, "makefile.am": true, "makefile.in": true, ".goreleaser.yml": true, ".goreleaser.yaml": true}

func isPackagingName(base, lower string) bool {
	return packagingNames[lower] || strings.HasSuffix(lower, ".gemspec") || strings.HasSuffix(lower, ".spec") && !strings.Contains(lower, ".spec.") ||
		strings.HasSuffix(lower, ".cmake") || strings.HasSuffix(lower, ".nix") || strings.HasSuffix(lower, ".mk") ||
		strings.HasPrefix(lower, "dockerfile.") || strings.HasSuffix(lower, ".dockerfile")
}
