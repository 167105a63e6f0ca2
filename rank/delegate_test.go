package rank

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCodeLines(t *testing.T) {
	text := "// Doc.\nfunc f() {\n\t// note\n\treturn g()\n}\n"
	if got := codeLines([]byte(text)); len(got) != 2 || string(got[1]) != "return g()" {
		t.Errorf("codeLines = %q", got)
	}
	py := "def get(url):\n    \"\"\"Sends a GET.\n\n    More.\n    \"\"\"\n    return request('get', url)\n"
	if got := codeLines([]byte(py)); len(got) != 2 || string(got[1]) != "return request('get', url)" {
		t.Errorf("codeLines(python) = %q", got)
	}
}

// callRE is the reference callNames must agree with.
var callRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

func refCallNames(line []byte) []string {
	var out []string
	for _, m := range callRE.FindAllSubmatch(line, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

func gotCallNames(line []byte) []string {
	var out []string
	callNames(line, func(b []byte) { out = append(out, string(b)) })
	return out
}

func TestCallNamesAgreesWithTheRegexp(t *testing.T) {
	lines := []string{"", "f(", "f (x)", "obj.method\t(a, g(b))", "9x(", "a9(", "_9 (", "12ab3 (", "if (x) {",
		"x.y.z()", "  return helper( a )", "f\n(", "f\v(", "((()))", "a b c", "é(", "fooé(", "x(y(z(", "a_b_c\r\n("}
	r := rand.New(rand.NewPCG(7, 11))
	alphabet := []byte("ab_9Z (\t\n.,)é")
	for range 2000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		lines = append(lines, string(b))
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	for _, l := range lines {
		if got, want := gotCallNames([]byte(l)), refCallNames([]byte(l)); !slices.Equal(got, want) {
			t.Fatalf("callNames(%q) = %q, the regexp finds %q", l, got, want)
		}
	}
}
