package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/citations"
)

// A Python method whose docstring restates what its loop does (issue
// 25: a config loader's docstring was cited, not the loop under it):
// the excerpt shows the loop, at most unit.MaxExcerptLines lines.
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
	terms := unit.QuestionTerms("load environment variables with a prefix")
	ft := unit.NewFileTerms(f, "config.py", terms)
	u := unit.Unit{Path: "config.py", Start: 2, End: f.Count(), Decl: 2, Symbol: "Config.from_prefixed_env", Kind: "method"}
	w := make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	sp := unit.ChooseSpan(ft, u, w, unit.MaxSpanLines)
	s, e := unit.Excerpt(ft, u, sp, w)
	if e-s+1 > unit.MaxExcerptLines {
		t.Errorf("excerpt %d-%d is over %d lines", s, e, unit.MaxExcerptLines)
	}
	loop := strings.Count(text[:strings.Index(text, "for key in")], "\n") + 1
	if s > loop || e < loop {
		t.Errorf("excerpt %d-%d (span %d-%d) misses the loop at line %d:\n%s", s, e, sp.Start, sp.End, loop, text)
	}
	if ds, de := unit.Docstring(ft, u); ds != 3 || de != 25 {
		t.Errorf("docstring %d-%d, want 3-25", ds, de)
	}
	if got := docSentence(ft, u); got != "Load any environment variables that start with the prefix" {
		t.Errorf("doc sentence %q", got)
	}
}

func TestLeadSentence(t *testing.T) {
	src := "package ctx\n\n// WithCancel returns a copy of parent with a new [Done] channel. More.\nfunc WithCancel() {}\n\nfunc bare() {}\n"
	f := citations.NewLineIndex([]byte(src))
	ft := unit.NewFileTerms(f, "ctx/ctx.go", nil)
	e := entry{u: unit.Unit{Path: "ctx/ctx.go", Start: 3, End: 4, Decl: 4, Symbol: "WithCancel", Kind: "func"}, ft: ft}
	if got, want := lead(e, 1), "`WithCancel` in ctx/ctx.go returns a copy of parent with a new Done channel [1]."; got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
	e.u = unit.Unit{Path: "ctx/ctx.go", Start: 6, End: 6, Decl: 6, Symbol: "bare", Kind: "func"}
	if got, want := lead(e, 2), "The best match is `bare` in ctx/ctx.go [2]."; got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
}

// A doc sentence that names the unit as a noun phrase ("A Topic
// Publisher.") is quoted whole, not cut after the name.
func TestLeadQuotesANounPhraseWhole(t *testing.T) {
	src := "/**\n * A Topic Publisher.\n */\npublic interface Topic {\n}\n"
	f := citations.NewLineIndex([]byte(src))
	ft := unit.NewFileTerms(f, "pub/Topic.java", nil)
	e := entry{u: unit.Unit{Path: "pub/Topic.java", Start: 1, End: 5, Decl: 4, Symbol: "Topic", Kind: "interface"}, ft: ft}
	if got, want := lead(e, 1), "`Topic` in pub/Topic.java: A Topic Publisher [1]."; got != want {
		t.Errorf("lead %q, want %q", got, want)
	}
}
