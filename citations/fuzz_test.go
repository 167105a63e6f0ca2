package citations

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRewriter: for any answer text and any split into two writes, the
// streamed text equals the text checked at once, and every marker left in
// it names one of the citations returned (numbered 1..k).
func FuzzRewriter(f *testing.F) {
	for _, s := range []string{
		"B [2], Add [1], again [2].",
		"x [9] y [1-3] `[4]` ```\n[5]\n``` [a.go:4] [b.go:99]",
		"[", "[1", "[1,", "[1-", " [0] ", "a[1] [1][2]", "[a.go:L4]", "``[1]``", "x `y [9] [1]", "`` a`b [7] `` [2]", "  ```\n[3]\n```", "[a.go:[9]3]", "[1 [0]]",
		// The forms of issue 13: line:col, anchors, line 0, reversed
		// ranges, semicolons, lookalike brackets, URIs, parentheses, links
		// and link definitions.
		"[pkg/cache.go:1:1] [main.go#L5] [main.go:0] [3-1] [1; 9] ［9］ 【2】",
		"[file:///home/u/a.go:4] [file:///…/cache.go:1] (pkg/cache.go:1) (a.go:4)",
		"[1](http://evil.example/x) [a.go:4](http://e) [2](x (y) z)",
		"[1]: http://evil.example\n[x]: y\nsee [1][x]",
		"［", "【1", "[1](", "(a.go:", "[a.go#L4-L6]",
		// Issue 26: held-back text (an unclosed marker, runs of spaces
		// and backticks), active content, lookalike markers.
		"see [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1", "x" + strings.Repeat(" ", 70) + "[9] y",
		"``` ```` `` ` [9]", "````\n```\n[x](y)\n````\n[1]", "    ```\n[x](y)",
		"![b](http://evil.example/beacon2.png) [see](javascript:alert(1)) [1]",
		`<a href="http://evil.example">[1]</a> <img src=x> <script>x</script> <http://e.example>`,
		"[x]: http://e.example\n![y][x] x[1](http://e) [1][9](http://e)",
		`\[x](y) \\[x](y) \` + "`[x](y)` x `[x](y)",
		"[1](http://e \"a\nb\")", "a < b <= c <!-- x -->",
		"[7\u200b] [２\u2060] [７] [𝟕] [٧] [\ufeff1] [१, ３] [a.go:４] [７ x]",
		// A marker after a line's indentation ends the line's start: no
		// fence after it, no link definition from it.
		" [3] ```\n[3]", "  [3]: x",
		// A removed marker joins a '<' to what follows it.
		"<[0]Y", "<(x.go:9)b", "<[9]/p>", "< [9]/", "<\t [0]a",
		"```\nx\r```\r[x](y)", "`a\r\n`[x](y)", "`` a\nb ` x `` [x](y) `", "`a\n\n`[x](y)`", "```x`\n[x](y)", "```\n```x\n[x](y)\n```\n[1]", "\t```\n[x](y)", "```` ```\n```` x",
	} {
		f.Add(s, len(s)/2)
	}
	f.Fuzz(func(t *testing.T, in string, cut int) {
		whole, cits, _ := Validate(in, registry(t), contentOf(files))
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		r := NewRewriter(registry(t), contentOf(files))
		streamed := r.Write(in[:cut]) + r.Write(in[cut:]) + r.Flush()
		if streamed != whole {
			t.Fatalf("streamed %q, whole %q", streamed, whole)
		}
		if len(in) <= 512 {
			// Byte by byte: every held-back scan is resumed.
			r := NewRewriter(registry(t), contentOf(files))
			var b strings.Builder
			for i := 0; i < len(in); i++ {
				b.WriteString(r.Write(in[i : i+1]))
			}
			if b.WriteString(r.Flush()); b.String() != whole {
				t.Fatalf("streamed byte by byte %q, whole %q", b.String(), whole)
			}
		}
		for i, c := range cits {
			if c.N != i+1 {
				t.Fatalf("citation %d numbered %d", i, c.N)
			}
		}
		// Every marker a reader sees (code left out) names a citation.
		if p := Check(whole, cits); len(p) > 0 {
			t.Fatalf("%s in %q (from %q)", p[0], whole, in)
		}
		if strings.Contains(in, "`") {
			return // the checks below do not know code: markers in code are left alone by design
		}
		checkNoActiveContent(t, in, whole)
		for _, l := range []string{"［", "］", "【", "】"} {
			// (Model output is valid UTF-8: JSON decoding makes it so.)
			if utf8.ValidString(in) && strings.Contains(whole, l) {
				t.Fatalf("lookalike bracket %q left in %q (from %q)", l, whole, in)
			}
		}
		for i := 0; i < len(whole); i++ {
			c := whole[i]
			if c != '[' && c != '(' || (i > 0 && isWordByte(whole[i-1])) || escapedAt(whole, i) {
				continue
			}
			closing := byte(']')
			if c == '(' {
				if i > 0 && whole[i-1] == ']' {
					rest := whole[i:]
					if k := strings.IndexByte(rest, '\n'); k >= 0 {
						rest = rest[:k]
					}
					open := strings.LastIndexByte(whole[:i-1], '[')
					if _, isMarker := parseMarker(whole[open+1:i-1], 100); open >= 0 && (open == 0 || !isWordByte(whole[open-1])) && isMarker && closesOnItsLine(rest) {
						t.Fatalf("a marker left as a link in %q (from %q)", whole, in)
					}
					continue
				}
				closing = ')'
			}
			if j := strings.IndexByte(whole[i:], closing); j > 0 && (j <= maxMarkerLen || strings.HasPrefix(whole[i+1:], "file:") && j <= maxURILen) {
				if ref, ok := parseRef(whole[i+1 : i+j]); ok && !strings.ContainsAny(whole[i+1:i+j], "[]()\n") {
					t.Fatalf("path reference %q (%+v) left in %q (from %q)", whole[i:i+j+1], ref, whole, in)
				}
			}
		}
		for _, line := range strings.Split(whole, "\n") {
			l := strings.TrimLeft(line, " ")
			if len(line)-len(l) > 3 || !strings.HasPrefix(l, "[") {
				continue
			}
			if j := strings.IndexByte(l, ']'); j > 0 && j+1 < len(l) && l[j+1] == ':' && !strings.Contains(l[:j], "[") {
				t.Fatalf("a link reference definition %q left in %q (from %q)", line, whole, in)
			}
		}
	})
}

// closesOnItsLine reports whether s, starting with '(', has its matching
// ')' before a line break and within maxLinkLen bytes: a link target the
// rewriter strips. (A longer one is left: a streamed answer cannot hold
// back unbounded text to find out.)
func closesOnItsLine(s string) bool {
	depth := 0
	for i := 0; i < len(s) && i <= maxLinkLen && s[i] != '\n'; i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return true
			}
		}
	}
	return false
}

// checkNoActiveContent: outside code, what markdown would make active is
// escaped: every '[' that is not escaped is a checked marker ("[1, 2]"), a
// '(' never follows a ']' unescaped, and no '<' opens HTML or an autolink.
func checkNoActiveContent(t *testing.T, in, whole string) {
	t.Helper()
	for i := 0; i < len(whole); i++ {
		if escapedAt(whole, i) {
			continue
		}
		switch whole[i] {
		case '[':
			j := strings.IndexByte(whole[i:], ']')
			if j < 0 || !checkedMarker.MatchString(whole[i:i+j+1]) {
				t.Fatalf("an unescaped '[' that is no checked marker at %d in %q (from %q)", i, whole, in)
			}
		case '(':
			if i > 0 && whole[i-1] == ']' {
				t.Fatalf("an unescaped '(' after ']' at %d in %q (from %q)", i, whole, in)
			}
		case '<':
			if i+1 < len(whole) && opensHTML(whole[i+1]) {
				t.Fatalf("an unescaped '<' opening HTML at %d in %q (from %q)", i, whole, in)
			}
		}
	}
}

// checkedMarker is the one form a checked marker takes.
var checkedMarker = regexp.MustCompile(`^\[[1-9][0-9]*(, [1-9][0-9]*)*\]$`)
