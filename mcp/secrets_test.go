package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/secretcorpus"
	"github.com/askls/askls/workspace"
)

// TestSecretCorpusReachesNoMCPRoute serves the secrets corpus
// (internal/secretcorpus: more than 40 formats, secret names, config.txt
// -> .env and chain.txt -> config.txt) and calls every tool over every
// file, every file:// resource, and ask: no planted value is in any
// result, text or structured, nor in the server's log (askls mcp logs
// through index.RedactHandler, as here).
func TestSecretCorpusReachesNoMCPRoute(t *testing.T) {
	root := secretcorpus.Write(t)
	logs := &lockedLog{}
	logger := slog.New(index.RedactHandler(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	cs, _ := connectWith(t, Options{Roots: []string{root}, Agent: agent.Config{NoModel: true}, Logger: logger}, nil)
	ctx := context.Background()
	files := secretcorpus.Files()
	paths := []string{"config.txt", "chain.txt"}
	for p := range files {
		paths = append(paths, p)
	}
	type run struct {
		tool string
		args map[string]any
	}
	var runs []run
	for _, p := range paths {
		runs = append(runs, run{"read_file", map[string]any{"path": p}}, run{"outline", map[string]any{"path": p}})
	}
	for _, pat := range []string{".", "fake|FAKE", "secret|token|key|password"} {
		runs = append(runs, run{"grep", map[string]any{"pattern": pat, "limit": 1000}})
	}
	for _, q := range []string{"password", "secret key", "api token", "private key", "credentials", "stripe key", "DB_PASSWORD"} {
		runs = append(runs, run{"search_code", map[string]any{"query": q, "limit": 50}})
	}
	runs = append(runs, run{"list_files", map[string]any{"glob": "**"}}, run{"list_files", map[string]any{"glob": "**/.*"}})
	for _, s := range []string{"stripeKey", "openaiKey", "TOKEN", "mapsKey"} {
		runs = append(runs, run{"find_symbol", map[string]any{"name": s}})
	}
	for _, s := range []string{"dial", "TOKEN", "DB_PASSWORD", "password"} {
		runs = append(runs, run{"find_references", map[string]any{"name": s, "tests": true}})
	}
	for _, q := range []string{"where are the stripe key and the AWS secret access key?", "what is DB_PASSWORD set to?", "which tokens does the project use?"} {
		runs = append(runs, run{"ask", map[string]any{"question": q}})
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if !slices.ContainsFunc(runs, func(r run) bool { return r.tool == tool.Name }) {
			t.Errorf("the tool %s is not driven over the corpus", tool.Name)
		}
	}
	for _, r := range runs {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: r.tool, Arguments: r.args})
		if err != nil {
			t.Fatalf("%s %v: %v", r.tool, r.args, err)
		}
		b, _ := json.Marshal(res) // text and structured content
		secretcorpus.Check(t, fmt.Sprintf("%s %v", r.tool, r.args), string(b))
	}
	for _, p := range paths {
		uri := workspace.FileURI(filepath.Join(root, p))
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			continue // not found: a secret file, or not indexed
		}
		b, _ := json.Marshal(res)
		secretcorpus.Check(t, "resource "+p, string(b))
		if p == "config.txt" || p == "chain.txt" || strings.HasPrefix(p, ".env") {
			t.Errorf("the secret file %s is served as a resource", p)
		}
	}
	if logs.String() == "" {
		t.Error("the server logged nothing: the log route is not checked")
	}
	secretcorpus.Check(t, "the server's log", logs.String())
	// The ordinary file is served as it is.
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: workspace.FileURI(filepath.Join(root, "app/handler.go"))})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != files["app/handler.go"] {
		t.Errorf("app/handler.go as a resource: %+v %v", res, err)
	}
}

// lockedLog is a log sink for the server's goroutines.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
