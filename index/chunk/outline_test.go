package chunk

import (
	"bytes"
	"fmt"
	"slices"
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
			lang := Language(name)
			chunks, syms := File(name, lang, f.Data)
			var got []string
			for _, s := range syms {
				got = append(got, fmt.Sprintf("%s %s %d-%d", s.Kind, s.QualifiedName(), s.Line, s.EndLine))
			}
			if g := strings.Join(got, "\n"); g != want[name] {
				t.Errorf("%s (%s) outline:\n%s\nwant:\n%s", name, lang, g, want[name])
			}
			// Every line with text is in some chunk.
			li := NewLines(f.Data)
			covered := map[int]bool{}
			for _, c := range chunks {
				for l := c.Start; l <= c.End; l++ {
					covered[l] = true
				}
			}
			for l := 1; l <= li.Count(); l++ {
				if strings.TrimSpace(string(li.Text(f.Data, l, l))) != "" && !covered[l] {
					t.Errorf("%s: line %d is in no chunk", name, l)
				}
			}
		})
	}
}

// TestChunksOfLongLinesAreCutByBytes: a data table of long lines (a Go
// var, a JSON file) is cut into chunks of at most maxChunkBytes, except a
// single line longer than that; the chunks cover every line in order and
// keep the unit's name.
func TestChunksOfLongLinesAreCutByBytes(t *testing.T) {
	var b strings.Builder
	b.WriteString("package data\n\n// Table holds samples.\nvar Table = []float64{\n")
	for i := range 80 {
		b.WriteString("\t" + strings.Repeat(fmt.Sprintf("%d.%04d, ", i, i), 120) + "\n")
	}
	b.WriteString("\t" + strings.Repeat("1.5, ", 5000) + "\n") // one 25 KB line
	b.WriteString("}\n")
	goSrc := []byte(b.String())
	jsonSrc := []byte("[\n" + strings.Repeat(`  {"name": "`+strings.Repeat("x", 900)+`"},`+"\n", 200) + "]\n")
	for _, tc := range []struct {
		name, lang string
		src        []byte
	}{{"data/table.go", "go", goSrc}, {"data/big.json", "json", jsonSrc}} {
		chunks, _ := File(tc.name, tc.lang, tc.src)
		li := NewLines(tc.src)
		covered := map[int]bool{}
		for i, c := range chunks {
			text := li.Text(tc.src, c.Start, c.End)
			if len(text) > maxChunkBytes && c.Start != c.End {
				t.Errorf("%s: chunk %d (lines %d-%d) holds %d bytes", tc.name, i, c.Start, c.End, len(text))
			}
			if i > 0 && c.Start <= chunks[i-1].Start {
				t.Errorf("%s: chunk %d starts at %d, after %d", tc.name, i, c.Start, chunks[i-1].Start)
			}
			if tc.lang == "go" && c.Start > 4 && c.Symbol != "Table" {
				t.Errorf("%s: chunk %d lost its unit: %+v", tc.name, i, c)
			}
			for l := c.Start; l <= c.End; l++ {
				covered[l] = true
			}
		}
		for l := 1; l <= li.Count(); l++ {
			if !covered[l] && len(bytes.TrimSpace(li.Text(tc.src, l, l))) > 0 {
				t.Errorf("%s: line %d is in no chunk", tc.name, l)
			}
		}
	}
}

// TestWindowsKeepTheirOwnNames: a long const block (x/sys's zerrors
// files hold thousands of names in one) is cut into windows that each
// index only the names defined on their lines, under a short header; a
// long function's windows all keep the function's name.
func TestWindowsKeepTheirOwnNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("package errs\n\nconst (\n")
	for i := range 400 {
		fmt.Fprintf(&b, "\tERROR_%04d Errno = %d\n", i, i)
	}
	b.WriteString(")\n\nfunc Long() {\n")
	for i := range 150 {
		fmt.Fprintf(&b, "\tstep%d()\n", i)
	}
	b.WriteString("}\n")
	src := []byte(b.String())
	chunks, _ := File("errs/zerrors.go", "go", src)
	li := NewLines(src)
	constWindows, funcWindows := 0, 0
	for _, c := range chunks {
		switch c.Kind {
		case "const":
			constWindows++
			if len(c.Names) > windowLines {
				t.Errorf("const window %d-%d carries %d names", c.Start, c.End, len(c.Names))
			}
			if len(c.Header) > 100 {
				t.Errorf("const window header is %d bytes long", len(c.Header))
			}
			text := string(li.Text(src, c.Start, c.End))
			if len(c.Names) > 0 && c.Symbol != c.Names[0] {
				t.Errorf("const window %d-%d is named %s, its first name is %s", c.Start, c.End, c.Symbol, c.Names[0])
			}
			for _, n := range c.Names {
				if !strings.Contains(text, n+" ") {
					t.Errorf("window %d-%d names %s, defined elsewhere", c.Start, c.End, n)
				}
			}
		case "func":
			funcWindows++
			if len(c.Names) != 1 || c.Names[0] != "Long" {
				t.Errorf("func window %d-%d names %v", c.Start, c.End, c.Names)
			}
		}
	}
	if constWindows < 7 || funcWindows < 3 {
		t.Fatalf("%d const and %d func windows", constWindows, funcWindows)
	}
}

// TestOutlineWindowsKeepTheirOwnNames: a long Python class is cut along
// its methods; each chunk names the class's methods defined on its lines,
// qualified with the class, and the class's own name stays with its
// header.
func TestOutlineWindowsKeepTheirOwnNames(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Big:\n")
	for i := range 60 {
		fmt.Fprintf(&b, "    def method_%02d(self):\n        return %d\n\n", i, i)
	}
	src := []byte(b.String())
	chunks, _ := File("big.py", "python", src)
	li := NewLines(src)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	if len(chunks[0].Names) == 0 || chunks[0].Names[0] != "Big" {
		t.Errorf("first chunk names %v, want Big first", chunks[0].Names)
	}
	for _, c := range chunks {
		text := string(li.Text(src, c.Start, c.End))
		for _, n := range c.Names {
			if n == "Big" {
				continue
			}
			method, ok := strings.CutPrefix(n, "Big.")
			if !ok || !strings.Contains(text, "def "+method+"(") {
				t.Errorf("chunk %d-%d names %s, defined elsewhere", c.Start, c.End, n)
			}
		}
		if len(c.Names) > 25 {
			t.Errorf("chunk %d-%d carries %d names", c.Start, c.End, len(c.Names))
		}
		if !strings.HasPrefix(c.Symbol, "Big") {
			t.Errorf("chunk %d-%d is labelled %q", c.Start, c.End, c.Symbol)
		}
	}
}

// A C function whose name starts its line begins on the line above, with
// its return type, and its signature holds both.
func TestOutlineCReturnTypeAbove(t *testing.T) {
	src := "/* Pick the next one. */\nstatic inline struct queue *\nqueue_next(struct queue *q)\n{\n\treturn q + 1;\n}\n\nint x;\nqueue_tail(struct queue *q)\n{\n\treturn q;\n}\n"
	_, syms := File("q.c", "c", []byte(src))
	var got []string
	for _, s := range syms {
		got = append(got, fmt.Sprintf("%s %d-%d %q", s.Name, s.Line, s.EndLine, s.Signature))
	}
	want := []string{`queue_next 2-6 "static inline struct queue * queue_next(struct queue *q)"`, `queue_tail 9-12 "queue_tail(struct queue *q)"`}
	if !slices.Equal(got, want) {
		t.Errorf("outline = %q, want %q", got, want)
	}
}

// Python: a decorator goes with the unit under it, a decorator call over
// several lines too; an @overload stub is a unit of its own line.
func TestPythonDecoratorsGoWithTheirUnit(t *testing.T) {
	body := strings.Repeat("    x = 1\n", 30)
	src := []byte("class D:\n    @overload\n    def get(self) -> int: ...\n    def get(self):\n" + body + "\n\n" +
		"@app.route(\n    \"/items\",\n    methods=[\"GET\"],\n)\ndef items():\n" + body)
	chunks, _ := File("views.py", "python", src)
	starts := map[string][]int{}
	for _, c := range chunks {
		starts[c.Symbol] = append(starts[c.Symbol], c.Start, c.End)
	}
	if got := starts["items"]; len(got) != 2 || got[0] != 37 || got[1] != 71 {
		t.Errorf("items's chunk %v, want 37-71 (its decorator call with it); chunks %v", got, starts)
	}
}
