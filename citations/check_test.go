package citations

import (
	"reflect"
	"strings"
	"testing"
)

func TestMarkersAsAReaderSeesThem(t *testing.T) {
	for in, want := range map[string][]int{
		"a [1] b [2, 3]":                    {1, 2, 3},
		"x[1] and `[2]` and ``a`[3]`` [4]":  {4},
		"const Usage = `usage [7]":          {7}, // an unclosed run is text
		"```go\nx := [3]int{}\n```\nok [5]": {5},
		"- `func f(b [4]byte)` [6]":         {6},
		"see [note] and [1-3]":              {1, 2, 3},
		"`a [1]\nb` [2]":                    {2},    // a span may run over the lines of its paragraph
		"`a [1]\n\nb` [2]":                  {1, 2}, // but not past a blank line
		"  ```\n[9]\n  ```\n[8]":            {8},
	} {
		var got []int
		for _, m := range Markers(in) {
			got = append(got, m.Nums...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Markers(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	cits := []Citation{{N: 1, Path: "a.go"}, {N: 2, Path: "b.go"}}
	if p := Check("a [1], b [2], `[7]`", cits); len(p) != 0 {
		t.Errorf("a true answer has problems: %v", p)
	}
	// The bug of issue 25: a label cut inside a raw string left its raw
	// number, beyond the list.
	p := Check("- const Usage = `usage: fzf [options] …, line 221 [10]\nok [1]", cits)
	if len(p) != 1 || !strings.Contains(p[0], "[10] names nothing (the list has 2)") {
		t.Errorf("problems %v", p)
	}
	if p := Check("x [1]", []Citation{{N: 2}}); len(p) != 1 {
		t.Errorf("a list numbered from 2 and a marker [1]: %v", p)
	}
}
