package rank

import "testing"

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
