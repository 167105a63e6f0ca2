package citations

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// files is a tiny snapshot for the tests.
var files = map[string]string{
	"a.go": "package a\n\n// Add adds.\nfunc Add(x, y int) int {\n\treturn x + y\n}\n",
	"b.go": "package b\n\nfunc B() {}\n",
}

func contentOf(m map[string]string) ContentFunc {
	return func(path string) ([]byte, error) {
		s, ok := m[path]
		if !ok {
			return nil, errors.New("not found")
		}
		return []byte(s), nil
	}
}

// registry registers: 1 = a.go:3-6, 2 = b.go:3, 3 = a.go:1, 4 = gone.go:1
func registry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry()
	add := func(path string, start, end int) {
		text, ok := Lines([]byte(files[path]), start, end)
		if !ok {
			text = "x\n"
		}
		r.Add(path, start, end, text, "")
	}
	add("a.go", 3, 6)
	add("b.go", 3, 3)
	add("a.go", 1, 1)
	r.Add("gone.go", 1, 1, "x\n", "")
	return r
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, in, want string
		cited          []string // path:start-end per citation
		dropped        []string
	}{
		{"plain", "Add adds [1].", "Add adds [1].", []string{"a.go:3-6"}, nil},
		{"renumber by first use", "B [2], Add [1], again [2].", "B [1], Add [2], again [1].", []string{"b.go:3-3", "a.go:3-6"}, nil},
		{"unknown removed with its space", "Add adds [7].", "Add adds.", nil, []string{"7"}},
		{"unknown in the middle", "Add [9] adds [1] too", "Add adds [1] too", []string{"a.go:3-6"}, []string{"9"}},
		{"list", "see [1, 2]", "see [1, 2]", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"list with unknown", "see [2, 8, 1]", "see [1, 2]", []string{"b.go:3-3", "a.go:3-6"}, []string{"8"}},
		{"range", "see [1-3]", "see [1, 2, 3]", []string{"a.go:3-6", "b.go:3-3", "a.go:1-1"}, nil},
		{"range partly unknown", "see [2-5]", "see [1, 2]", []string{"b.go:3-3", "a.go:1-1"}, []string{"4"}},
		{"long list", "see [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]", "see [1, 2, 3]", []string{"a.go:3-6", "b.go:3-3", "a.go:1-1"}, []string{"4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"}},
		{"huge number", "see [99999999999999999999999] ok", "see ok", nil, []string{"-1"}},
		{"en dash range", "see [1–2]", "see [1, 2]", []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"duplicate in a marker", "see [1, 1]", "see [1]", []string{"a.go:3-6"}, nil},
		{"adjacent markers", "x[1] y [1][2]", `x\[1] y [1][2]`, []string{"a.go:3-6", "b.go:3-3"}, nil},
		{"zero", "see [0]", "see", nil, []string{"0"}},
		{"deleted file", "see [4] and [1]", "see and [1]", []string{"a.go:3-6"}, []string{"4"}},
		{"inline code left alone", "use `a[7]` [1]", "use `a[7]` [1]", []string{"a.go:3-6"}, nil},
		// A label cut inside a raw string ("const Usage = `…") opens no
		// code span: the marker after it is checked and renumbered.
		{"unclosed backtick is text", "- const Usage = `usage: x …, line 3 [2]", "- const Usage = `usage: x …, line 3 [1]", []string{"b.go:3-3"}, nil},
		{"unclosed backtick, unknown marker", "x `y [9] and [1]", "x `y and [1]", []string{"a.go:3-6"}, []string{"9"}},
		{"span of two backticks holds one", "`` a`b [7] `` [2]", "`` a`b [7] `` [1]", []string{"b.go:3-3"}, nil},
		{"runs of other lengths do not close", "``a` [7]` [2]", "``a` [7]` [1]", []string{"b.go:3-3"}, nil},
		{"array type in a code span", "- `func f(b [4]byte)` [1]", "- `func f(b [4]byte)` [1]", []string{"a.go:3-6"}, nil},
		{"span closes only on its line", "`a [2]\nb` [1]", "`a [1]\nb` [2]", []string{"b.go:3-3", "a.go:3-6"}, nil},
		{"fenced code left alone", "```go\nx := [3]int{}\ny := v [9]\n```\nok [2]", "```go\nx := [3]int{}\ny := v [9]\n```\nok [1]", []string{"b.go:3-3"}, nil},
		{"not a marker", "a [link] and [1 x] and [] [1]", `a \[link] and \[1 x] and \[] [1]`, []string{"a.go:3-6"}, nil},
		{"big range", "[1-999]", "[1, 2, 3]", []string{"a.go:3-6", "b.go:3-3", "a.go:1-1"}, []string{"4"}},
		{"unterminated", "see [1", `see \[1`, nil, nil},
		{"at start", "[2] is B", "[1] is B", []string{"b.go:3-3"}, nil},
		{"path reference inside evidence", "see [a.go:4-5]", "see [1]", []string{"a.go:3-6"}, nil},
		{"path reference by suffix, smallest span", "see [dir/../a.go:1] [a.go:1]", "see [1]", []string{"a.go:1-1"}, []string{"dir/../a.go:1"}},
		{"path reference outside what was read", "see [a.go:2-4].", "see.", nil, []string{"a.go:2-4"}},
		{"path reference to a file never read", "see [secret.go:10]", "see", nil, []string{"secret.go:10"}},
		{"line past the end", "see [b.go:99]", "see", nil, []string{"b.go:99"}},
		{"words are no path reference", "see [note: this]", `see \[note: this]`, nil, nil},
		{"unicode around", "größe [1] – 日本 [3]", "größe [1] – 日本 [2]", []string{"a.go:3-6", "a.go:1-1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cits, dropped := Validate(tt.in, registry(t), contentOf(files))
			if got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			var cited []string
			for i, c := range cits {
				if c.N != i+1 {
					t.Errorf("citation %d has N=%d", i, c.N)
				}
				cited = append(cited, fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End))
			}
			if !reflect.DeepEqual(cited, tt.cited) {
				t.Errorf("cited = %v, want %v", cited, tt.cited)
			}
			if !reflect.DeepEqual(dropped, tt.dropped) {
				t.Errorf("dropped = %v, want %v", dropped, tt.dropped)
			}
			// Every marker a reader sees names a citation.
			if p := Check(got, cits); len(p) > 0 {
				t.Errorf("%v in %q", p, got)
			}
		})
	}
}

// markersIn finds the numbers of [n] markers outside code, independently of
// the rewriter, by validating against an identity registry.
func markersIn(text string) []int {
	var out []int
	code := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			code = !code
			continue
		}
		if code {
			continue
		}
		for i := 0; i < len(line); i++ {
			if line[i] != '[' || (i > 0 && isWordByte(line[i-1])) || escapedAt(line, i) {
				continue
			}
			j := strings.IndexByte(line[i:], ']')
			if j < 0 {
				continue
			}
			if ids, ok := parseMarker(normalizeMarker(line[i+1:i+j]), 100); ok {
				out = append(out, ids...)
			}
		}
	}
	return out
}

// escapedAt reports whether s[i] follows an odd run of backslashes:
// markdown shows it as text.
func escapedAt(s string, i int) bool {
	n := 0
	for i-n-1 >= 0 && s[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// Streaming in any chunking gives the same text as validating at once.
func TestRewriterStreamingEqualsWhole(t *testing.T) {
	inputs := []string{
		"B [2], Add [1], again [2].",
		"Add [9] adds  [1, 8] too [2-3]\n```\n[1] in code\n```\n`[2]` and [3]",
		"size [1]\t[7]\n- item [2]",
		"- const Usage = `usage [2]\n`` a`b [1] `` [3] ``x` [1]",
	}
	for _, in := range inputs {
		want, wantCits, _ := Validate(in, registry(t), contentOf(files))
		for size := 1; size <= 4; size++ {
			r := NewRewriter(registry(t), contentOf(files))
			var got strings.Builder
			for i := 0; i < len(in); i += size {
				got.WriteString(r.Write(in[i:min(i+size, len(in))]))
			}
			got.WriteString(r.Flush())
			if got.String() != want {
				t.Errorf("chunks of %d: %q, want %q", size, got.String(), want)
			}
			if !reflect.DeepEqual(r.Citations(), wantCits) {
				t.Errorf("chunks of %d: citations differ", size)
			}
		}
	}
}

func TestStale(t *testing.T) {
	reg := registry(t)
	changed := map[string]string{
		"a.go": "package a\n\n// Add adds two ints.\nfunc Add(x, y int) int {\n\treturn x + y\n}\n",
		"b.go": "package b\n", // line 3 is gone
	}
	_, cits, _ := Validate("[1] [2] [3]", reg, contentOf(changed))
	if len(cits) != 3 {
		t.Fatalf("got %d citations", len(cits))
	}
	for i, want := range []bool{true, true, false} {
		if cits[i].Stale != want {
			t.Errorf("citation %v stale = %v, want %v", cits[i], cits[i].Stale, want)
		}
	}
	_, cits, _ = Validate("[1]", registry(t), contentOf(files))
	if cits[0].Stale {
		t.Errorf("unchanged file marked stale")
	}
	if got := files["a.go"][cits[0].StartByte:cits[0].EndByte]; got != "// Add adds.\nfunc Add(x, y int) int {\n\treturn x + y\n}" {
		t.Errorf("byte span = %q", got)
	}
}

func TestRegistryDedup(t *testing.T) {
	r := NewRegistry()
	a := r.Add("x.go", 1, 2, "a\nb\n", "")
	b := r.Add("x.go", 1, 2, "a\nb\n", "X")
	c := r.Add("x.go", 1, 2, "a\nc\n", "")
	if a != 1 || b != 1 || c != 2 || r.Len() != 2 {
		t.Fatalf("ids %d %d %d len %d", a, b, c, r.Len())
	}
	if ev, _ := r.Get(1); ev.Symbol != "X" || ev.Hash != Hash("a\nb\n") {
		t.Errorf("evidence 1 = %+v", ev)
	}
	if _, ok := r.Get(3); ok {
		t.Errorf("Get(3) ok")
	}
}

func TestExcerpt(t *testing.T) {
	if got := Excerpt("a\nb\n"); got != "a\nb" {
		t.Errorf("%q", got)
	}
	long := strings.Repeat("l\n", 10)
	if got := Excerpt(long); got != "l\nl\nl\nl\nl\nl…" {
		t.Errorf("%q", got)
	}
	wide := strings.Repeat("日", 200)
	got := Excerpt(wide)
	if !strings.HasSuffix(got, "…") || len(got) > 404 || !strings.HasPrefix(wide, strings.TrimSuffix(got, "…")) {
		t.Errorf("cut badly: %d bytes", len(got))
	}
}

func TestForget(t *testing.T) {
	reg := registry(t)
	reg.Forget(2)
	got, cits, dropped := Validate("a [1] b [2]", reg, contentOf(files))
	if got != "a [1] b" || len(cits) != 1 || !reflect.DeepEqual(dropped, []string{"2"}) {
		t.Errorf("got %q %v %v", got, cits, dropped)
	}
	if id := reg.Add("b.go", 3, 3, "func B() {}\n", ""); id != 5 {
		t.Errorf("re-added forgotten evidence got id %d, want a new one (5)", id)
	}
}
