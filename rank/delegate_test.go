package rank

import "testing"

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
