package citations

import (
	"testing"
)

func TestLineSpanAndLines(t *testing.T) {
	content := []byte("one\ntwo\nthree\nfour")
	tests := []struct {
		start, end int
		want       string
		whole      bool
	}{
		{1, 1, "one", true},
		{2, 3, "two\nthree", true},
		{4, 4, "four", true},
		{3, 9, "three\nfour", false},
		{9, 9, "", false},
		{0, 1, "one", false},
	}
	for _, tt := range tests {
		s, e := LineSpan(content, tt.start, tt.end)
		if got := string(content[s:e]); got != tt.want {
			t.Errorf("LineSpan(%d,%d) = %q, want %q", tt.start, tt.end, got, tt.want)
		}
		text, whole := Lines(content, tt.start, tt.end)
		if whole != tt.whole || (whole && text != tt.want+"\n") {
			t.Errorf("Lines(%d,%d) = %q %v", tt.start, tt.end, text, whole)
		}
	}
	if n := CountLines([]byte("a\nb\n")); n != 2 {
		t.Errorf("CountLines = %d", n)
	}
	if n := CountLines(nil); n != 0 {
		t.Errorf("CountLines(nil) = %d", n)
	}
}

func TestLineIndexMatchesLines(t *testing.T) {
	for _, content := range []string{"", "a", "a\n", "a\nb", "a\n\nb\n", "\n\n", "x\ny\nz"} {
		x := NewLineIndex([]byte(content))
		if x.Count() != CountLines([]byte(content)) {
			t.Errorf("%q: Count %d, CountLines %d", content, x.Count(), CountLines([]byte(content)))
		}
		for s := 0; s <= 4; s++ {
			for e := 0; e <= 4; e++ {
				a, aok := Lines([]byte(content), s, e)
				b, bok := x.Lines(s, e)
				if a != b || aok != bok {
					t.Errorf("%q lines %d-%d: Lines %q %v, LineIndex %q %v", content, s, e, a, aok, b, bok)
				}
			}
		}
	}
}
