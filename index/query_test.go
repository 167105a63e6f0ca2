package index

import "testing"

// A test word asks for tests when written as English, not inside an
// identifier written as code; in a project named for testing it names
// the project's subject.
func TestAskingForTests(t *testing.T) {
	for _, c := range []struct {
		q        string
		projects []string
		want     bool
	}{
		{"how is the lexer tested", nil, true},
		{"which tests cover the lexer", nil, true},
		{"where does runAllTests collect the suites", nil, false},
		{"where does RUN_ALL_TESTS collect the suites", nil, false},
		{"how does a failing test report its values", []string{"quicktest"}, false},
		{"how does a failing test report its values", []string{"lexer"}, true},
	} {
		p, err := parseQuery(c.q, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		p.dropNames(c.projects)
		if p.aboutTests != c.want {
			t.Errorf("%q in %v: asks for tests %v, want %v", c.q, c.projects, p.aboutTests, c.want)
		}
	}
}
