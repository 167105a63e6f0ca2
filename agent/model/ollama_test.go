package model

import "testing"

func TestHostURL(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:11434":     "http://127.0.0.1:11434",
		"http://localhost":    "http://localhost:11434",
		"https://example.com": "https://example.com:443",
		":9999":               "http://127.0.0.1:9999",
		"0.0.0.0":             "http://0.0.0.0:11434",
		"http://h:1/ollama/":  "http://h:1/ollama",
	} {
		u, err := hostURL(in)
		if err != nil || u.String() != want {
			t.Errorf("hostURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	if _, err := hostURL("ftp://x"); err == nil {
		t.Error("ftp accepted")
	}
}
