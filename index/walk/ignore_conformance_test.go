package walk

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// ignoreRules is a .gitignore of tricky rules: escapes, trailing spaces,
// classes, negations, anchored and folder rules, "**" forms.
const ignoreRules = `# a comment
\#hash.txt
trail\ 
spaces.txt   
*.log
!keep.log
/anchored.txt
sub/deep.txt
dironly/
[\]]x.txt
[a-c]lass.txt
[!a]neg.txt
a**b.txt
**/any/z.txt
lvl/**
docs/**/*.md
\!bang.txt
*.bak
!sub/*.bak
é*.[ch]
`

// ignoreFilesTree are the files of the generated tree.
var ignoreFilesTree = []string{
	"#hash.txt", "hash.txt", "trail ", "trail", "spaces.txt", "app.log", "keep.log", "sub/app.log", "sub/keep.log",
	"anchored.txt", "sub/anchored.txt", "sub/deep.txt", "x/sub/deep.txt",
	"dironly/a.txt", "x/dironly/b.txt", "dironly.txt",
	"]x.txt", "\\x.txt", "alass.txt", "class.txt", "dlass.txt", "aneg.txt", "bneg.txt",
	"ab.txt", "axxb.txt", "a/b.txt", "any/z.txt", "q/any/z.txt", "q/any/y.txt",
	"lvl/in.txt", "lvl/deeper/in.txt", "lvlx.txt",
	"docs/a.md", "docs/x/y/b.md", "docs/c.txt", "!bang.txt", "bang.txt",
	"a.bak", "sub/a.bak", "sub/x/a.bak",
	"nested/a.tmp", "nested/important.tmp", "nested/only-here.txt", "nested/deeper/only-here.txt", "nested/deeper/b.tmp",
	"global.txt", "sub/global.txt", "info-excluded.txt", "plain.txt", "sub/plain.txt",
	"éa.c", "sub/éb.h", "ea.c",
}

// TestIgnoreRulesConformToGit runs git on a generated tree of tricky
// rules (in .gitignore, a nested .gitignore, .git/info/exclude and the
// global core.excludesFile) and compares the files it does not ignore
// with the files askls's walker keeps.
func TestIgnoreRulesConformToGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, withConfig := range []bool{false, true} {
		t.Run(map[bool]string{false: "XDG ignore file", true: "core.excludesFile"}[withConfig], func(t *testing.T) {
			checkIgnoreConformance(t, withConfig)
		})
	}
}

func checkIgnoreConformance(t *testing.T, withConfig bool) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	// Not ~/.config: NewIgnorer finds the global ignore file only through
	// the configDir it is given (the command reads $XDG_CONFIG_HOME).
	xdg := filepath.Join(home, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg) // for git
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.MkdirAll(filepath.Join(xdg, "git"), 0o755)
	os.WriteFile(filepath.Join(xdg, "git", "ignore"), []byte("global.txt\n"), 0o644)
	if withConfig {
		// core.excludesFile set in ~/.gitconfig wins over the XDG file.
		os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = x\n[core]\n\texcludesFile = ~/my-ignore\n"), 0o644)
		os.WriteFile(filepath.Join(home, "my-ignore"), []byte("plain.txt\n"), 0o644)
	}

	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(ignoreRules), 0o644)
	os.MkdirAll(filepath.Join(dir, "nested"), 0o755)
	os.WriteFile(filepath.Join(dir, "nested", ".gitignore"), []byte("*.tmp\n!important.tmp\n/only-here.txt\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("info-excluded.txt\n"), 0o644)
	for _, p := range ignoreFilesTree {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, l := range strings.Split(git("ls-files", "--others", "--exclude-standard", "-z"), "\x00") {
		if l != "" && l != ".gitignore" && l != "nested/.gitignore" {
			want = append(want, l)
		}
	}
	sort.Strings(want)

	res, err := Walk(t.Context(), Root{Abs: dir, Real: dir, Ignore: NewIgnorer(dir, nil, xdg)}, Options{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files() {
		if f.Rel != ".gitignore" && f.Rel != "nested/.gitignore" {
			got = append(got, f.Rel)
		}
	}
	sort.Strings(got)
	gotSet, wantSet := map[string]bool{}, map[string]bool{}
	for _, p := range got {
		gotSet[p] = true
	}
	for _, p := range want {
		wantSet[p] = true
	}
	for _, p := range ignoreFilesTree {
		if gotSet[p] != wantSet[p] {
			t.Errorf("%q: git keeps it %v, askls keeps it %v", p, wantSet[p], gotSet[p])
		}
	}
}

// FuzzIgnoreParse: any ignore file parses without a panic, and its rules
// match any path without one; a rule and its escaped-space form agree
// with trimIgnoreLine.
func FuzzIgnoreParse(f *testing.F) {
	f.Add([]byte(ignoreRules), "sub/a.bak")
	f.Add([]byte("[\\]]x\n[!a-c]*\n**/z/**\nfoo\\ \n\\!x\n"), "]x")
	f.Add([]byte("[\n[]\n\\\n**\n/**/\n"), "a/b/c")
	f.Fuzz(func(t *testing.T, data []byte, p string) {
		base := p[strings.LastIndexByte(p, '/')+1:]
		for _, r := range parseIgnore(data, "fuzz") {
			r.matches(p, base)
		}
		if l := trimIgnoreLine(string(data)); strings.HasSuffix(l, " ") && !strings.HasSuffix(l, "\\ ") {
			t.Fatalf("trailing space kept in %q", l)
		}
	})
}
