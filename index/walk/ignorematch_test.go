package walk

import (
	"regexp"
	"strings"
	"testing"
)

// TestFastIgnoreMatchersAgreeWithTheRegexp: each rule's string test
// (fastMatcher, a base-name regexp) answers as the regexp over the whole
// path does, on the patterns of a kernel tree's .gitignore files and
// paths at several depths.
func TestFastIgnoreMatchersAgreeWithTheRegexp(t *testing.T) {
	patterns := []string{
		".*", "*.o", "*.o.*", "*.a", "*.asn1.[ch]", "*.c.[012]*.*", "*.tab.[ch]", "*.dtb.S",
		"Module.symvers", "modules.order", "/linux", "/vmlinux", "/vmlinux-gdb.py", "/tar-install/",
		"vmlinux*", "*~*", "*~", "\\#*#", "\\#notes", "\\!bang", "/include/config/", "include/generated",
		"a/**/b", "**/build", "build/**", "**", "*", "?.c", "x?y", "**x", "x**", "*x*", "***x", "a*b",
		"Documentation/*.html", "/scripts/kconfig/*.o", "[!a]b", "foo\\ ", "!/debian/", "!.gitignore",
		"/*.spec", "arch/*/include/generated/", "exports_*_generated.h", "é.txt", "é*.[ch]", "\\é?.c",
	}
	paths := []string{
		"vmlinux", "vmlinux.o", "vmlinux-gdb.py", "linux", "a/linux", ".gitignore", "a/.config",
		"kernel/sched/core.c", "kernel/sched/core.o", "kernel/sched/core.o.cmd", "x.asn1.c", "d/x.asn1.h",
		"lib/foo.c.012r.expand", "foo.tab.c", "a/b", "a/x/y/b", "build", "d/build", "build/x", "x", "ax",
		"xa", "axb", "a.c", "d/a.c", "xzy", "Module.symvers", "d/Module.symvers", "foo~", "x~y", "#a#",
		"#notes", "!bang", "include/config/auto.conf", "include/generated", "Documentation/a.html",
		"Documentation/d/a.html", "scripts/kconfig/conf.o", "ab", "bb", "a/b/c", "foo ", "debian", "a*b",
		"x.spec", "d/x.spec", "arch/x86/include/generated", "arch/include/generated", "exports_x_generated.h",
		"d/exports__generated.h", "é.txt", "d/é.txt", "e.txt", "éx.c", "d/é.h", "éé.c", "é.c",
	}
	for _, p := range patterns {
		rs := parseIgnore([]byte(p), "test")
		if len(rs) != 1 {
			t.Fatalf("%q: %d rules", p, len(rs))
		}
		r := rs[0]
		if r.re == nil && (r.fast == matchRegexp || r.fast == matchBaseRegexp) {
			t.Fatalf("%q (kind %d): no regexp", p, r.fast)
		}
		line := strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(trimIgnoreLine(p), "!"), "\\"), "/")
		anchored := strings.Contains(line, "/")
		full := regexp.MustCompile("^" + ignoreExpr(strings.TrimPrefix(line, "/"), anchored) + "$")
		for _, sub := range paths {
			base := sub[strings.LastIndexByte(sub, '/')+1:]
			if got, want := r.matches(sub, base), full.MatchString(sub); got != want {
				t.Errorf("pattern %q (kind %d) on %q: %v, the path regexp says %v", p, r.fast, sub, got, want)
			}
		}
	}
}

// TestNeedLiteral: the literal an ignore rule's paths must hold, checked
// before its regexp runs, is a run of the pattern's literal characters.
func TestNeedLiteral(t *testing.T) {
	for _, c := range []struct {
		glob     string
		anchored bool
		want     string
	}{
		{"*.asn1.[ch]", false, ".asn1."},
		{"*.c.[012]*.*", false, ".c."},
		{"\\#*#", false, "#"},
		{"arch/*/include/generated", true, "/include/generated"},
		{"a/**/b", true, "a/"},
		{"[ab]", false, ""},
		{"é?.c", false, "é"},
	} {
		if got := needLiteral(ignoreExpr(c.glob, c.anchored)); got != c.want {
			t.Errorf("%q: %q, want %q", c.glob, got, c.want)
		}
	}
}
