package corpus

import "testing"

func TestTestUnit(t *testing.T) {
	for _, c := range []struct {
		lang, symbol, kind string
		want               bool
	}{
		{"rust", "tests", "module", true},
		{"rust", "tests.parse_nested", "func", true},
		{"rust", "parser.test.roundtrip", "func", true},
		{"rust", "Parser.parse_test_attr", "method", false}, // a name holding "test" is not a test module
		{"rust", "testing.Harness", "struct", false},
		{"rust", "", "", false},
		{"rust", "Decoder.decode_fut", "test", true}, // #[cfg(test)] on a method
		{"go", "tests.Helper", "func", false},        // other languages keep tests in files of their own
	} {
		if got := TestUnit(c.lang, c.symbol, c.kind); got != c.want {
			t.Errorf("TestUnit(%q, %q, %q) = %v, want %v", c.lang, c.symbol, c.kind, got, c.want)
		}
	}
}
