package chunk

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden outlines in testdata/outlines")

// TestOutlineGolden chunks each src/ file of testdata/outlines/*.txtar and
// compares its symbols and chunks with the want/ file of the same name
// (go test ./index/chunk -run TestOutlineGolden -update rewrites them). Every
// line with text must be in some chunk, and no symbol or chunk may end
// past the file's last line.
func TestOutlineGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/outlines/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for _, f := range ar.Files {
				if name, ok := strings.CutPrefix(f.Name, "want/"); ok {
					want[name] = string(f.Data)
				}
			}
			var out []txtar.File
			for _, f := range ar.Files {
				name, ok := strings.CutPrefix(f.Name, "src/")
				if !ok {
					continue
				}
				got := describeOutline(t, name, f.Data)
				out = append(out, f, txtar.File{Name: "want/" + name, Data: []byte(got)})
				if !*update && got != want[name] {
					t.Errorf("%s:\n%s\nwant:\n%s", name, got, want[name])
				}
			}
			if *update {
				ar.Files = out
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// describeOutline renders the symbols and chunks of a file, one a line:
// "kind Container.name line-end" and "start-end kind label", a merged
// chunk followed by its parts.
func describeOutline(t *testing.T, name string, src []byte) string {
	chunks, syms := File(name, Language(name), src)
	var b strings.Builder
	b.WriteString("symbols:\n")
	for _, s := range syms {
		fmt.Fprintf(&b, "  %s %s %d-%d\n", s.Kind, s.QualifiedName(), s.Line, s.EndLine)
	}
	b.WriteString("chunks:\n")
	li := NewLines(src)
	covered := make([]bool, li.Count()+1)
	for _, c := range chunks {
		fmt.Fprintf(&b, "  %d-%d %s %s\n", c.Start, c.End, c.Kind, c.Symbol)
		for _, p := range c.Parts {
			fmt.Fprintf(&b, "    %d-%d %s %s\n", p.Start, p.End, p.Kind, p.Symbol)
		}
		for l := c.Start; l <= c.End && l < len(covered); l++ {
			covered[l] = true
		}
	}
	for _, s := range syms {
		if s.EndLine > li.Count() {
			t.Errorf("%s: %s ends on line %d, past the last line (%d)", name, s.QualifiedName(), s.EndLine, li.Count())
		}
	}
	for _, c := range chunks {
		if c.End > li.Count() {
			t.Errorf("%s: chunk %d-%d %s ends past the last line (%d)", name, c.Start, c.End, c.Symbol, li.Count())
		}
	}
	for l := 1; l <= li.Count(); l++ {
		if !covered[l] && len(bytes.TrimSpace(li.Text(src, l, l))) > 0 {
			t.Errorf("%s: line %d is in no chunk", name, l)
		}
	}
	return b.String()
}
