package corpus

import "testing"

func TestTestUnit(t *testing.T) {
	for _, c := range []struct {
		lang, symbol string
		want         bool
	}{
		{"rust", "tests", true},
		{"rust", "tests.parse_nested", true},
		{"rust", "parser.test.roundtrip", true},
		{"rust", "Parser.parse_test_attr", false}, // a name holding "test" is not a test module
		{"rust", "testing.Harness", false},
		{"rust", "", false},
		{"go", "tests.Helper", false}, // other languages keep tests in files of their own
	} {
		if got := TestUnit(c.lang, c.symbol); got != c.want {
			t.Errorf("TestUnit(%q, %q) = %v, want %v", c.lang, c.symbol, got, c.want)
		}
	}
}
