package rank

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCommentLines(t *testing.T) {
	for _, c := range []struct {
		lang, text, comment string
	}{
		{"go", "// Save writes.\nfunc Save() { x := 1 // one\n}\n", "// Save writes."},
		{"java", "/**\n * Returns the count.\n same block\n */\nlong count() {\n", "/**\n * Returns the count.\n same block\n */"},
		{"c", "#define MAX 3\n/* one line */ \nint *p;\n*p = 1;\n--n;\n * inside a block\n", "/* one line */ | * inside a block"},
		{"sql", "-- the users\nSELECT 1;\n", "-- the users"},
		{"python", "def f():\n    \"\"\"Doc\n    more.\n    \"\"\"\n    # note\n    return 1\n", "    \"\"\"Doc\n    more.\n    \"\"\"\n    # note"},
		{"python", "    '''One line.'''\n    x = 1\n", "    '''One line.'''"},
		{"markdown", "# Title\n* item\n", ""},
	} {
		var got string
		for i, r := range commentLines([]byte(c.text), c.lang) {
			if i > 0 {
				got += "|"
			}
			got += c.text[r[0]:r[1]]
		}
		if got != c.comment {
			t.Errorf("%s %q: comments %q, want %q", c.lang, c.text, got, c.comment)
		}
	}
}

// refCommentLines is commentLines as it was before its fast path for
// lines of code (isCodeLine): every line trimmed.
func refCommentLines(text []byte, lang string) [][2]int {
	if noComments[lang] {
		return nil
	}
	var out [][2]int
	inBlock, inDoc := false, false
	for start := 0; start < len(text); {
		end := len(text)
		if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		t := bytes.TrimSpace(text[start:end])
		isComment := false
		switch {
		case inBlock:
			isComment = true
			inBlock = !bytes.Contains(t, []byte("*/"))
		case inDoc:
			isComment = true
			inDoc = !isDocQuote(t, false)
		case bytes.HasPrefix(t, []byte("/*")):
			isComment = true
			inBlock = !bytes.Contains(t[2:], []byte("*/"))
		case lang == "python" && isDocQuote(t, true):
			isComment = true
			inDoc = len(t) < 6 || !isDocQuote(t, false)
		case bytes.HasPrefix(t, []byte("//")), bytes.HasPrefix(t, []byte("--")) && dashComments[lang],
			len(t) > 0 && t[0] == '#' && hashComments[lang],
			len(t) > 0 && t[0] == '*' && (len(t) == 1 || t[1] == ' ' || t[1] == '/' || t[1] == '\t'):
			isComment = true
		}
		if isComment {
			if n := len(out); n > 0 && out[n-1][1] == start-1 {
				out[n-1][1] = end
			} else {
				out = append(out, [2]int{start, end})
			}
		}
		start = end + 1
	}
	return out
}

// commentLines is the reference on texts of the bytes its rules tell
// apart (Unicode spaces among them) and on this package's files.
func TestCommentLinesIsTheReference(t *testing.T) {
	pieces := []string{" ", "\t", "\n", "\v", "\r", "/", "*", "-", "#", "\"\"\"", "'''", "\"", "'", "x", "\u00a0", "\u0085", "\u2028", "é", "*/", "/*", "//"}
	r := rand.New(rand.NewPCG(5, 6))
	var texts [][]byte
	for range 20000 {
		var b []byte
		for range r.IntN(40) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		texts = append(texts, b)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, data)
	}
	for _, text := range texts {
		for _, lang := range []string{"go", "python", "sql", "shell", "markdown"} {
			if got, want := commentLines(text, lang), refCommentLines(text, lang); !slices.Equal(got, want) {
				t.Fatalf("commentLines(%q, %s) = %v, want %v", text, lang, got, want)
			}
		}
	}
}
