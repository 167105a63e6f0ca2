package index

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestOutlinePerLanguage(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/outline.txtar")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "want/"); ok {
			want[name] = strings.TrimSpace(string(f.Data))
		}
	}
	for _, f := range ar.Files {
		name, ok := strings.CutPrefix(f.Name, "src/")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			lang := languageOf(name)
			chunks, syms := chunkFile(name, lang, f.Data)
			var got []string
			for _, s := range syms {
				got = append(got, fmt.Sprintf("%s %s %d-%d", s.Kind, qualified(s), s.Line, s.EndLine))
			}
			if g := strings.Join(got, "\n"); g != want[name] {
				t.Errorf("%s (%s) outline:\n%s\nwant:\n%s", name, lang, g, want[name])
			}
			// Every line with text is in some chunk.
			li := newLineIndex(f.Data)
			covered := map[int]bool{}
			for _, c := range chunks {
				for l := c.Start; l <= c.End; l++ {
					covered[l] = true
				}
			}
			for l := 1; l <= li.lines(); l++ {
				if strings.TrimSpace(string(li.text(f.Data, l, l))) != "" && !covered[l] {
					t.Errorf("%s: line %d is in no chunk", name, l)
				}
			}
		})
	}
}
