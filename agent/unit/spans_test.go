package unit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/citations"
)

// A long doc comment that explains what the question asks is cited
// rather than code that holds little of it; one that does not, is not.
func TestChooseSpanCitesAnExplainingDocComment(t *testing.T) {
	var b strings.Builder
	b.WriteString("package rt\n\n// Procs sets the number of procs.\n//\n// # Default\n//\n")
	for i := range 20 {
		fmt.Fprintf(&b, "// note %d on nothing in particular.\n", i)
	}
	b.WriteString("// In a container, the default comes from the cgroup quota;\n// GODEBUG=containerprocs=0 turns that off.\n")
	b.WriteString("func Procs(n int) int {\n\tn = defaultProcs(n)\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\tstep%d(n)\n", i)
	}
	b.WriteString("\treturn n\n}\n")
	f := citations.NewLineIndex([]byte(b.String()))
	u := Unit{Path: "rt/procs.go", Start: 3, End: 71, Decl: 29}
	if text, _ := f.Lines(29, 29); !strings.HasPrefix(text, "func Procs") {
		t.Fatalf("line 29 is %q, not the declaration", text)
	}
	spanOf := func(q string) Span {
		terms := QuestionTerms(q)
		w := make([]float64, len(terms))
		for i := range w {
			w[i] = 1
		}
		return ChooseSpan(NewFileTerms(f, "rt/procs.go", terms), u, w, MaxSpanLines)
	}
	if sp := spanOf("in a container with a quota, how is the default chosen and which GODEBUG turns it off"); sp.Start > 27 || sp.End < 28 || sp.End >= 29 {
		t.Errorf("span %d-%d, want the doc comment's lines 27-28 (not the code from 29)", sp.Start, sp.End)
	}
	if sp := spanOf("how is step3 called"); sp.Start < 29 {
		t.Errorf("span %d-%d, want the code (from line 29)", sp.Start, sp.End)
	}
}

// A member's own lines start at its decorators or annotations, and at
// the comment above them; a Ruby instance variable is not a decorator.
func TestOwnStartTakesTheDecorators(t *testing.T) {
	for _, c := range []struct {
		text       string
		lang       string
		decl, want int
	}{
		{"class A:\n    x = 1\n    @cached_property\n    def total(self):\n        return 1\n", "python", 4, 3},
		{"class A {\n    /** Runs. */\n    @Override\n    @Deprecated\n    public void run() {}\n}\n", "java", 5, 2},
		{"class A\n  @x = 1\n  def total\n  end\nend\n", "ruby", 3, 3},
	} {
		f := citations.NewLineIndex([]byte(c.text))
		u := Unit{Path: "a", Start: DocStart(f, c.decl), End: c.decl, Decl: c.decl, Lang: c.lang}
		if got := OwnStart(NewFileTerms(f, "a", nil), u); got != c.want {
			t.Errorf("%s: OwnStart = %d, want %d", c.lang, got, c.want)
		}
	}
}
