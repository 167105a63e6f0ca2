package words

import "testing"

func TestIsCode(t *testing.T) {
	for w, want := range map[string]bool{
		"maxLen": true, "ServeHTTP": true, "HTTPServer": true, "utf8Len": true, "max_len": true,
		"errors.Is": true, "utf8": true, "AVX2": true, "`Visitor`": false, "x.": false,
		"Server": false, "HTTP": false, "URLs": false, "APIs": false, "__init__": false, "_private": false,
		"e.g": true, // a dotted abbreviation looks like a qualified name; callers drop stop words
		// A number or a quantity is a value: no identifier starts with a digit.
		"2048": false, "64KB": false, "1.5s": false, "3xx": false,
	} {
		if got := IsCode(w); got != want {
			t.Errorf("IsCode(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestCutContraction(t *testing.T) {
	for w, want := range map[string]string{"doesn't": "doesn", "Go's": "Go", "I've": "I", "config['timeout']": "config['timeout']", "it’s": "it"} {
		if got := CutContraction(w); got != want {
			t.Errorf("CutContraction(%q) = %q, want %q", w, got, want)
		}
	}
}
