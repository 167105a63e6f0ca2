package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/internal/fixture"
)

// captureStdout runs f with os.Stdout redirected and returns what it wrote.
func captureStdout(t *testing.T, f func() error) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); done <- b }()
	ferr := f()
	w.Close()
	os.Stdout = old
	return string(<-done), ferr
}

func TestSearchJSONShape(t *testing.T) {
	root := fixture.Tree(t, map[string]string{
		"srv/server.go": "package srv\n\n// ServeHTTP answers one request.\nfunc (s *Server) ServeHTTP() {\n}\n",
		"other.go":      "package srv\n\nfunc Unrelated() {}\n",
	})
	cache := t.TempDir()
	out, err := captureStdout(t, func() error {
		return run(context.Background(), []string{"search", "--root", root, "--cache", cache, "--json", "ServeHTTP"}, io.Discard)
	})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Query string `json:"query"`
		Hits  []struct {
			Path    string   `json:"path"`
			Start   int      `json:"start"`
			End     int      `json:"end"`
			Symbol  string   `json:"symbol"`
			Score   *float64 `json:"score"`
			Excerpt *string  `json:"excerpt"`
		} `json:"hits"`
		MS *float64 `json:"ms"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.Query != "ServeHTTP" || got.MS == nil || len(got.Hits) == 0 {
		t.Fatalf("output = %s", out)
	}
	h := got.Hits[0]
	if h.Path != "srv/server.go" || h.Start != 3 || h.End != 5 || h.Symbol != "ServeHTTP" || h.Score == nil || h.Excerpt == nil {
		t.Errorf("first hit = %+v", h)
	}
}

func TestIndexAndSearchBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	err := run(context.Background(), []string{"index", "--root", missing, "--cache", t.TempDir()}, io.Discard)
	if err == nil {
		t.Error("index of a missing root succeeded")
	}
	root := fixture.Tree(t, map[string]string{"a.go": "package a\n"})
	if err := run(context.Background(), []string{"search", "--root", root}, io.Discard); exitCode(err) != 2 {
		t.Errorf("search without a query: %v (exit %d), want a usage error", err, exitCode(err))
	}
	_, err = captureStdout(t, func() error {
		return run(context.Background(), []string{"search", "--root", root, "--cache", t.TempDir(), "--json", string(bytes.Repeat([]byte("x "), 5000))}, io.Discard)
	})
	if err == nil {
		t.Error("a 10,000-character query gave no error")
	}
}

// --explain prints the query's plan, then, under each hit, what each
// ranking stage did to its score: a test file's prior among them.
func TestSearchExplain(t *testing.T) {
	root := fixture.Tree(t, map[string]string{
		"srv/server.go":      "package srv\n\n// ServeHTTP answers one request.\nfunc (s *Server) ServeHTTP() {\n}\n",
		"srv/server_test.go": "package srv\n\n// TestServeHTTP answers one request.\nfunc TestServeHTTP(t *testing.T) {\n}\n",
	})
	out, err := captureStdout(t, func() error {
		return run(context.Background(), []string{"search", "--root", root, "--cache", t.TempDir(), "--explain", "answers one request"}, io.Discard)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"query: terms answer request; a lookup", "srv/server.go:3-5", "= candidates tfidf=", "srv/server_test.go:3-5", "priors test×0.15"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
