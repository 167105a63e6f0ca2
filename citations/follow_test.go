package citations

import (
	"fmt"
	"strings"
	"testing"
)

func TestReanchor(t *testing.T) {
	content := []byte("a\nb\nc\nx\ny\nc\nd\n")
	h := SpanHash([]byte("c\nd\n"), 1, 2)
	for _, tc := range []struct {
		start, end   int
		wantS, wantE int
		ok           bool
	}{
		{6, 7, 6, 7, true},  // in place
		{3, 4, 6, 7, true},  // moved down 3
		{9, 10, 6, 7, true}, // moved up, past the end
	} {
		s, e, ok := Reanchor(content, tc.start, tc.end, h, "")
		if s != tc.wantS || e != tc.wantE || ok != tc.ok {
			t.Errorf("Reanchor(%d, %d) = %d, %d, %v; want %d, %d, %v", tc.start, tc.end, s, e, ok, tc.wantS, tc.wantE, tc.ok)
		}
	}
	if s2, e2, ok2 := Reanchor(content, 3, 4, h, "c\nd\n"); s2 != 6 || e2 != 7 || !ok2 {
		t.Errorf("reanchor by text = %d, %d, %v; want 6, 7, true", s2, e2, ok2)
	}
	if _, _, ok := Reanchor(content, 1, 2, SpanHash([]byte("q\n"), 1, 1), ""); ok {
		t.Error("found lines that are not there")
	}
	// Two places: the nearest wins.
	two := []byte("c\nd\n1\n2\n3\n4\nc\nd\n")
	if s, _, _ := Reanchor(two, 5, 6, h, ""); s != 7 {
		t.Errorf("nearest of two: line %d, want 7", s)
	}
	if s, _, _ := Reanchor(two, 2, 3, h, ""); s != 1 {
		t.Errorf("nearest of two: line %d, want 1", s)
	}
	for _, start := range []int{5, 2} {
		want := map[int]int{5: 7, 2: 1}[start]
		if s, _, _ := Reanchor(two, start, start+1, h, "c\nd\n"); s != want {
			t.Errorf("nearest of two by text from %d: line %d, want %d", start, s, want)
		}
	}
	// Text that is there but not at a line's start is not the cited lines.
	if _, _, ok := Reanchor([]byte("xc\nd\n"), 1, 2, h, "c\nd\n"); ok {
		t.Error("found the text in the middle of a line")
	}
}

// BenchmarkReanchor: 30 cited lines that moved 1,000 lines down in a
// 20,000-line file, found by their text and by hashing every span.
func BenchmarkReanchor(b *testing.B) {
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "\tline %d of a large file = %d\n", i, i*7)
	}
	content := []byte(sb.String())
	text, _ := Lines(content, 10001, 10030)
	h := SpanHash(content, 10001, 10030)
	for _, bc := range []struct {
		name, text string
	}{{"text", text}, {"hash", ""}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if s, _, ok := Reanchor(content, 9001, 9030, h, bc.text); !ok || s != 10001 {
					b.Fatalf("found %d, %v", s, ok)
				}
			}
		})
	}
}
