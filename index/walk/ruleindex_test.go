package walk

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRuleIndexAgreesWithAskingEachRule: on lists of rules of every
// shape (names, paths, folder-only rules, negations, the same literal
// more than once, globs), the indexed search finds the rule that asking
// every rule from the last finds, for files and folders.
func TestRuleIndexAgreesWithAskingEachRule(t *testing.T) {
	pool := []string{
		"Makefile", "!Makefile", "build/", "build", "!build/", "/vmlinux", "/linux", "!/linux", "include/config/",
		"a/b", "!a/b", "*.o", "!*.o", "*.c.[012]*.*", "vmlinux*", "*~*", "\\#*#", "x?y", "**/any", "lvl/**",
		"core.c", "!core.c", "sub/", "/sub", "a", "!a", "*.asn1.[ch]", "[!a]b", "docs/**/*.md",
		"*.c", "!*.c", "*.mod.c", "!*.mod.c", "*.", "*.o/", "*_test", "*.tar.gz", ".*", "*.lds",
	}
	paths := []string{
		"Makefile", "d/Makefile", "build", "d/build", "vmlinux", "d/vmlinux", "vmlinux.lds", "linux", "d/linux",
		"include/config", "a/b", "x/a/b", "a", "d/a", "core.c", "d/core.c", "core.o", "x.c.012r.y", "#x#", "xzy",
		"any", "d/any", "lvl/in", "sub", "d/sub", "x.asn1.c", "bb", "ab", "docs/x/y.md", "foo~bar", "plain.txt",
		"x.mod.c", "d/.x.mod.c", "x.", "x..", "a.o", "d/a.o", "a_test", "a.tar.gz", "d/a.gz", ".config", "vmlinux.lds", "c",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		var lines []string
		for range minIndexed + rng.IntN(3*minIndexed) {
			lines = append(lines, pool[rng.IntN(len(pool))])
		}
		rs := parseIgnore([]byte(strings.Join(lines, "\n")), "test")
		l := newRuleList(rs)
		if l.idx == nil {
			t.Fatalf("list %d of %d rules: not indexed", n, len(rs))
		}
		for _, p := range paths {
			base := p[strings.LastIndexByte(p, '/')+1:]
			for _, isDir := range []bool{false, true} {
				got, want := l.last(p, base, isDir), lastMatch(rs, len(rs)-1, -1, p, base, isDir)
				if got != want {
					t.Fatalf("rules %q, %q (folder %v): the index finds rule %d, asking each finds %d", lines, p, isDir, got, want)
				}
			}
		}
	}
}
