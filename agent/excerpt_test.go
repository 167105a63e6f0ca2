package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/citations"
)

// A Python method whose docstring restates what its loop does (issue
// 25: a config loader's docstring was cited, not the loop under it):
// the excerpt shows the loop, at most maxExcerptLines lines.
func TestExcerptPrefersTheCodeOverTheDocstring(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Config:\n    def from_prefixed_env(self, prefix=\"APP\"):\n        \"\"\"Load any environment variables that start with the prefix.\n\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "        The prefix and environment variables, note %d.\n", i)
	}
	b.WriteString("        \"\"\"\n        prefix = f\"{prefix}_\"\n        for key in sorted(os.environ):\n            if not key.startswith(prefix):\n                continue\n            value = os.environ[key]\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "            step%d(value)\n", i)
	}
	b.WriteString("        return True\n")
	text := b.String()
	f := citations.NewLineIndex([]byte(text))
	terms := questionTerms("load environment variables with a prefix")
	ft := newFileTerms(f, "config.py", terms)
	u := unit{path: "config.py", start: 2, end: f.Count(), decl: 2, symbol: "Config.from_prefixed_env", kind: "method"}
	w := make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	sp := chooseSpan(ft, u, w, maxSpanLines)
	s, e := excerpt(ft, u, sp, w)
	if e-s+1 > maxExcerptLines {
		t.Errorf("excerpt %d-%d is over %d lines", s, e, maxExcerptLines)
	}
	loop := strings.Count(text[:strings.Index(text, "for key in")], "\n") + 1
	if s > loop || e < loop {
		t.Errorf("excerpt %d-%d (span %d-%d) misses the loop at line %d:\n%s", s, e, sp.start, sp.end, loop, text)
	}
	if ds, de := docstring(ft, u); ds != 3 || de != 25 {
		t.Errorf("docstring %d-%d, want 3-25", ds, de)
	}
	if got := docSentence(ft, u); got != "Load any environment variables that start with the prefix" {
		t.Errorf("doc sentence %q", got)
	}
}

func TestLeadSentence(t *testing.T) {
	src := "package ctx\n\n// WithCancel returns a copy of parent with a new [Done] channel. More.\nfunc WithCancel() {}\n\nfunc bare() {}\n"
	f := citations.NewLineIndex([]byte(src))
	ft := newFileTerms(f, "ctx/ctx.go", nil)
	e := entry{u: unit{path: "ctx/ctx.go", start: 3, end: 4, decl: 4, symbol: "WithCancel", kind: "func"}, ft: ft}
	if got, want := lead(e, 1), "`WithCancel` in ctx/ctx.go returns a copy of parent with a new Done channel [1]."; got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
	e.u = unit{path: "ctx/ctx.go", start: 6, end: 6, decl: 6, symbol: "bare", kind: "func"}
	if got, want := lead(e, 2), "The best match is `bare` in ctx/ctx.go [2]."; got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
}
