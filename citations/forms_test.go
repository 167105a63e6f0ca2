package citations

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestCitationLikeForms: every bracket or parenthesis form that names a
// file, a line or a number is checked like [n] (and becomes [n] or goes),
// and a marker is never a link to anything but its Location. These forms
// passed untouched before, naming files never read, lines never returned
// or numbers that do not exist.
func TestCitationLikeForms(t *testing.T) {
	checkForms(t, []form{
		{"line and column", "see [a.go:4:1].", "see [1].", []string{"a.go:3-6"}, nil},
		{"line and column never read", "see [pkg/cache.go:1:1].", "see.", nil, []string{"pkg/cache.go:1:1"}},
		{"GitHub anchor", "see [a.go#L4].", "see [1].", []string{"a.go:3-6"}, nil},
		{"GitHub anchor range", "see [a.go#L4-L6].", "see [1].", []string{"a.go:3-6"}, nil},
		{"GitHub anchor never read", "see [main.go#L5].", "see.", nil, []string{"main.go#L5"}},
		{"line zero", "see [a.go:0].", "see.", nil, []string{"a.go:0"}},
		{"reversed range", "see [3-1].", "see.", nil, []string{"3-1"}},
		{"semicolons", "see [1; 2].", "see [1, 2].", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"semicolons with unknown", "see [1; 9].", "see [1].", []string{"a.go:3-6"}, []string{"9"}},
		{"fullwidth", "see ［2］.", "see [1].", []string{"b.go:3-3"}, nil},
		{"fullwidth unknown", "see ［9］.", "see.", nil, []string{"9"}},
		{"lenticular", "see 【1】.", "see [1].", []string{"a.go:3-6"}, nil},
		{"file URI", "see [file:///home/u/proj/a.go:4].", "see [1].", []string{"a.go:3-6"}, nil},
		{"file URI elided", "see [file:///…/cache.go:1].", "see.", nil, []string{"file:///…/cache.go:1"}},
		{"parenthesised path", "see (a.go:4) and (b.go:3).", "see [1] and [2].", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"parenthesised path never read", "see (pkg/cache.go:1).", "see.", nil, []string{"pkg/cache.go:1"}},
		{"parenthesised number is prose", "steps (1) and (2) [1]", "steps (1) and (2) [1]", []string{"a.go:3-6"}, nil},
		{"call is not a reference", "call f(a.go:4)", "call f(a.go:4)", nil, nil},
		{"marker as a link", "see [1](http://evil.example/x).", "see [1].", []string{"a.go:3-6"}, nil},
		{"unknown marker as a link", "see [9](http://evil.example/x).", "see.", nil, []string{"9"}},
		{"path reference as a link", "see [a.go:4](http://evil.example/x) ok", "see [1] ok", []string{"a.go:3-6"}, nil},
		{"link with parentheses inside", "see [1](http://e.example/a_(b)) ok", "see [1] ok", []string{"a.go:3-6"}, nil},
		{"reference definition of a marker", "[1]: http://evil.example\nsee [1]", "[1] : http://evil.example\nsee [1]", []string{"a.go:3-6"}, nil},
		{"reference definition of a label", "see [1][x]\n[x]: http://evil.example", `see [1]\[x]` + "\n" + `\[x]: http://evil.example`, []string{"a.go:3-6"}, nil},
		{"list of path references", "see [a.go:4, b.go:3].", "see [1, 2].", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"prose in brackets is escaped", "a [note: this] and [see above] [1]", `a \[note: this] and \[see above] [1]`, []string{"a.go:3-6"}, nil},
		{"a plain link is text", "see [the docs](https://go.dev) [1]", `see \[the docs]\(https://go.dev) [1]`, []string{"a.go:3-6"}, nil},
		{"dot-dot path", "see [../a.go:4].", "see.", nil, []string{"../a.go:4"}},
	})
}

// form is one case of a table of answers: the answer, its text once
// checked, its citations (path:start-end) and what was dropped.
type form struct {
	name, in, want string
	cited          []string
	dropped        []string
}

// checkForms checks each form at once and streamed byte by byte.
func checkForms(t *testing.T, tests []form) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cits, dropped := Validate(tt.in, registry(t), contentOf(files))
			if got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			var cited []string
			for _, c := range cits {
				cited = append(cited, fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End))
			}
			if !reflect.DeepEqual(cited, tt.cited) {
				t.Errorf("cited = %v, want %v", cited, tt.cited)
			}
			if !reflect.DeepEqual(dropped, tt.dropped) {
				t.Errorf("dropped = %v, want %v", dropped, tt.dropped)
			}
			// Streamed byte by byte, the same.
			r := NewRewriter(registry(t), contentOf(files))
			var b strings.Builder
			for i := 0; i < len(tt.in); i++ {
				b.WriteString(r.Write(tt.in[i : i+1]))
			}
			b.WriteString(r.Flush())
			if b.String() != got {
				t.Errorf("streamed byte by byte: %q, whole %q", b.String(), got)
			}
		})
	}
}

// TestAnswerIsCapped: a 10 MB answer is cut at MaxAnswerBytes, with a
// note, streamed or whole, and what is kept is still checked.
func TestAnswerIsCapped(t *testing.T) {
	line := "Add adds [1] and B is [2]. "
	in := strings.Repeat(line, 10<<20/len(line))
	whole, cits, _ := Validate(in, registry(t), contentOf(files))
	if len(whole) > MaxAnswerBytes+100 || !strings.HasSuffix(whole, "(the answer was cut at 32 KB)") {
		t.Errorf("answer of %d bytes, ends %q", len(whole), whole[max(0, len(whole)-60):])
	}
	if len(cits) != 2 {
		t.Errorf("citations %v", cits)
	}
	r := NewRewriter(registry(t), contentOf(files))
	var b strings.Builder
	for i := 0; i < len(in); i += 4096 {
		b.WriteString(r.Write(in[i:min(i+4096, len(in))]))
	}
	b.WriteString(r.Flush())
	if b.String() != whole {
		t.Errorf("streamed %d bytes, whole %d", b.Len(), len(whole))
	}
	for _, n := range markersIn(whole) {
		if n < 1 || n > 2 {
			t.Errorf("marker [%d] left", n)
		}
	}
}
