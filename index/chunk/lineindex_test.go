package chunk

import (
	"strings"
	"testing"

	"github.com/askls/askls/citations"
)

// TestLineIndexMatchesCitations: the index's lines are the lines that
// citations counts and quotes, so a hit's range and a citation's range
// name the same text, empty files and files without a last newline
// included.
func TestLineIndexMatchesCitations(t *testing.T) {
	for _, content := range []string{
		"", "a", "a\n", "a\nb", "a\nb\n", "\n", "\n\n", "a\n\nb\n\n", "a\r\nb\r\n", "a\rb\n", "é\n😀",
	} {
		c := []byte(content)
		li := NewLines(c)
		n := citations.CountLines(c)
		if li.Count() != n {
			t.Errorf("%q: Lines has %d lines, citations.CountLines %d", content, li.Count(), n)
			continue
		}
		x := citations.NewLineIndex(c)
		for s := 1; s <= n; s++ {
			for e := s; e <= n; e++ {
				want, ok := citations.Lines(c, s, e)
				fast, _ := x.Lines(s, e)
				got := string(li.Text(c, s, e))
				if !ok || fast != want || strings.TrimSuffix(got, "\n") != strings.TrimSuffix(want, "\n") {
					t.Errorf("%q lines %d-%d: index %q, citations %q (%v), LineIndex %q", content, s, e, got, want, ok, fast)
				}
			}
		}
		if got := li.Text(c, 1, n+1); len(got) != len(c) {
			t.Errorf("%q: text past the end is %q, want the whole content", content, got)
		}
	}
}
