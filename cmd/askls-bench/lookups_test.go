package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookupsDrawsNamesDeclaredOnce(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("scan/scan.go", "package scan\n\ntype Reader struct {\n\tmaxTokenSize int\n\tbuf []byte\n}\n\nfunc (r *Reader) readToken() {}\n\nfunc sharedName() {}\n")
	write("other/other.go", "package other\n\nfunc sharedName() {}\n")
	write("scan/scan_test.go", "package scan\n\nfunc helperInTest() {}\n")
	if err := runLookups([]string{"--root", root, "--out", out}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	funcs, fields := read("funcs.jsonl"), read("fields.jsonl")
	if !strings.Contains(funcs, `"question":"readToken"`) || !strings.Contains(funcs, `"path":"scan/scan.go","start":8`) {
		t.Errorf("funcs.jsonl = %s, want readToken at scan/scan.go:8", funcs)
	}
	if strings.Contains(funcs, "sharedName") || strings.Contains(funcs, "helperInTest") {
		t.Errorf("funcs.jsonl = %s, want no name declared twice and no test's", funcs)
	}
	if !strings.Contains(fields, `"question":"maxTokenSize"`) || strings.Count(fields, "\n") != 1 {
		t.Errorf("fields.jsonl = %s, want maxTokenSize alone (buf is one part)", fields)
	}
}
