package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"
)

// refsWorkspace: ctx.WithCancel defined in ctx/, called 12 times in code
// over three folders, and named in a comment, a string, a test, a
// function of another package of the same name and a method of that name
// in ctx/ (none of which counts).
func refsWorkspace() memSource {
	m := memSource{
		"ctx/ctx.go": "package ctx\n\n// WithCancel returns a copy of parent.\nfunc WithCancel(parent int) int {\n\treturn parent\n}\n\nfunc inner() int { return WithCancel(1) }\n",
		// In its own package, ctx's WithCancel is written bare: t.WithCancel
		// is a method of another type, and so is the one declared here.
		"ctx/timer.go":    "package ctx\n\ntype T struct{}\n\nfunc (T) WithCancel(n int) int { return n }\n\nfunc g(t T) int { return t.WithCancel(3) }\n",
		"ctx/ctx_test.go": "package ctx\n\nfunc TestX() { WithCancel(2) }\n",
		"other/other.go":  "package other\n\n// WithCancel is another one.\nfunc WithCancel() {}\n\nfunc f() { WithCancel() }\n",
		"doc/notes.go":    "package doc\n\n// ctx.WithCancel(x) in a comment\nvar s = \"ctx.WithCancel(y)\"\n",
	}
	for i, dir := range []string{"net", "net", "srv", "srv", "srv"} {
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\nimport \"ctx\"\n\nfunc use%d() {\n", dir, i)
		for k := 0; k < 1+i%2*2; k++ {
			b.WriteString("\t_ = ctx.WithCancel(0)\n")
		}
		b.WriteString("\tf := ctx.WithCancel // a use, not a call\n\t_ = f\n}\n")
		m[fmt.Sprintf("%s/use%d.go", dir, i)] = b.String()
	}
	return m
}

func TestFindReferencesCountsCodeOnly(t *testing.T) {
	src := refsWorkspace()
	tb := tools.NewBox(src, nil)
	q := tools.RefQuery{Name: "WithCancel", Calls: true, Qualifier: "ctx", Folder: "ctx",
		Skip: func(p string, l int) bool { return p == "ctx/ctx.go" && l >= 3 && l <= 6 }}
	refs, err := tools.ReferencesOf(context.Background(), src, tb, q)
	if err != nil {
		t.Fatal(err)
	}
	// ctx/ctx.go:8, then net/use0 (1), net/use1 (3), srv/use2 (1),
	// srv/use3 (3), srv/use4 (1).
	var got []string
	for _, s := range refs.Sites {
		got = append(got, fmt.Sprintf("%s:%d", s.Path, s.Line))
	}
	want := "ctx/ctx.go:8 net/use0.go:6 net/use1.go:6 net/use1.go:7 net/use1.go:8 srv/use2.go:6 srv/use3.go:6 srv/use3.go:7 srv/use3.go:8 srv/use4.go:6"
	if strings.Join(got, " ") != want || refs.Files != 6 {
		t.Errorf("calls %v in %d files, want %s in 6", got, refs.Files, want)
	}
	q.Calls = false
	uses, _ := tools.ReferencesOf(context.Background(), src, tb, q)
	if len(uses.Sites) != len(refs.Sites)+5 {
		t.Errorf("%d uses, want the %d calls and 5 values", len(uses.Sites), len(refs.Sites))
	}
}

func TestWhoCallsThatCountsAndGroups(t *testing.T) {
	src := refsWorkspace()
	res := askThreadChecked(t, src, "what does `ctx.WithCancel` do?", "who calls that?")
	ans := res[1].Answer
	for _, want := range []string{
		"### Calls of `ctx.WithCancel` in the workspace (code only, tests left out)\n\n10 call sites in 6 files:\n",
		"\nctx/ (1):\n- ctx/ctx.go:8: `func inner() int { return WithCancel(1) }` [",
		"\nsrv/ (5):\n- srv/use2.go:6: `_ = ctx.WithCancel(0)` [",
	} {
		if !strings.Contains(ans, want) || strings.Count(ans, "ctx/ctx.go:8") != 1 {
			t.Errorf("answer lacks %q:\n%s", want, ans)
		}
	}
	calls := ans[strings.Index(ans, "### Calls"):]
	calls = calls[:strings.Index(calls, "Also relevant")]
	for _, not := range []string{"other/other.go:6", "ctx_test.go", "doc/notes.go"} {
		if strings.Contains(calls, not) {
			t.Errorf("%s listed as a call:\n%s", not, ans)
		}
	}
}

// The calls listed under an answer about a Go function are the
// function's: in its own folder written bare, not another value's method
// of the same name nor the declaration of one.
func TestAnswersCallsOfAFunctionLeaveMethodsOfItsNameOut(t *testing.T) {
	res := askThreadChecked(t, refsWorkspace(), "how does `ctx.WithCancel` work?")
	ans := res[0].Answer
	i := strings.Index(ans, "### Calls of WithCancel in ctx")
	if i < 0 {
		t.Fatalf("no calls listed:\n%s", ans)
	}
	calls := ans[i:]
	if !strings.Contains(calls, "- ctx/ctx.go:8: `func inner() int { return WithCancel(1) }`") {
		t.Errorf("the bare call in ctx/ctx.go is not listed:\n%s", ans)
	}
	if strings.Contains(calls, "ctx/timer.go") {
		t.Errorf("a method named WithCancel listed as a call:\n%s", ans)
	}
}
