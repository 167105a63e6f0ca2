package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/internal/secretcorpus"
)

// TestSecretCorpusReachesNoCommandRoute: over the secrets corpus,
// `askls search --json` for every planted value and for the words that
// find them, and `askls ask --json` (retrieval mode, and against a model
// server that fails with the API key in its error body), print no
// planted value and no credential of askls's own, on stdout, on stderr
// (the log) or in any file of the cache (the index, the thread files).
func TestSecretCorpusReachesNoCommandRoute(t *testing.T) {
	root := secretcorpus.Write(t)
	cache := t.TempDir()
	ctx := context.Background()
	var all strings.Builder
	queries := []string{"password", "secret key", "api token", "private key", "credentials", "stripe key", "DB_PASSWORD"}
	for _, q := range queries {
		out, err := captureStdout(t, func() error {
			return run(ctx, []string{"search", "--root", root, "--cache", cache, "--json", "--limit", "50", q}, &all)
		})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		secretcorpus.Check(t, "search --json "+q, out)
	}
	for _, l := range secretcorpus.Leaks() {
		out, _ := captureStdout(t, func() error {
			return run(ctx, []string{"search", "--root", root, "--cache", cache, "--json", l.Value}, io.Discard)
		})
		// The output names the query it ran: that is the user's own text.
		secretcorpus.Check(t, "search --json "+l.Value, strings.ReplaceAll(out, `"query":"`+l.Value+`"`, ""))
	}

	const key = "sk-live-CLIKEY0123456789abcdef"
	fail := func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Status: 500, Error: "upstream failed for key Bearer " + key}
	}
	f := modeltest.NewOpenAI(t, fail, fail, fail)
	f.Key = key
	t.Setenv("ASKLS_API_KEY", key)
	asks := [][]string{
		{"--no-model"},
		{"--provider", "openai", "--base-url", f.URL, "--model", "m"},
		{"--provider", "openai", "--base-url", "http://sk:CLIURLKEY99@127.0.0.1:1/v1", "--model", "m"},
		{"--provider", "openai", "--base-url", f.URL + "?api_key=CLIQUERYKEY99", "--model", "m"},
	}
	for _, extra := range asks {
		var out, errb bytes.Buffer
		args := append([]string{"--root", root, "--cache", cache, "--json"}, extra...)
		args = append(args, "where are the stripe key, the AWS secret access key and DB_PASSWORD?")
		if err := askMain(ctx, args, &out, &errb); err != nil {
			t.Fatalf("ask %v: %v\n%s", extra, err, errb.String())
		}
		all.WriteString(out.String() + errb.String())
		secretcorpus.Check(t, "ask --json "+strings.Join(extra, " "), out.String()+errb.String())
	}
	filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				secretcorpus.Check(t, "the cache file "+p, string(b))
				all.Write(b)
			}
		}
		return nil
	})
	for _, s := range []string{"CLIKEY0123456789", "CLIURLKEY99", "CLIQUERYKEY99"} {
		if strings.Contains(all.String(), s) {
			t.Errorf("askls's own credential %q is printed or stored", s)
		}
	}
}
