package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/internal/mcpclient"
	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/workspace"
)

// connect starts a Server on a fixture tree and returns a client session
// over the SDK's in-memory transports.
func connect(t *testing.T, opts Options) (*sdk.ClientSession, string) {
	t.Helper()
	return connectWith(t, opts, nil)
}

func connectWith(t *testing.T, opts Options, copts *sdk.ClientOptions) (*sdk.ClientSession, string) {
	t.Helper()
	dir := fixture.Write(t, "testdata/workspace.txtar")
	if opts.Roots == nil {
		opts.Roots = []string{dir}
	}
	opts.CacheDir = t.TempDir()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := New(opts)
	t.Cleanup(srv.Close)
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, dir
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args any) (*sdk.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

func TestToolsAreTheAgentsTools(t *testing.T) {
	cs, _ := connect(t, Options{Agent: agent.Config{NoModel: true}})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*sdk.Tool{}
	for _, tl := range list.Tools {
		got[tl.Name] = tl
	}
	for _, spec := range agent.Tools() {
		tl, ok := got[spec.Name]
		if !ok {
			t.Errorf("no tool %s", spec.Name)
			continue
		}
		schema, _ := json.Marshal(tl.InputSchema)
		for _, p := range spec.Params {
			if !strings.Contains(string(schema), `"`+p.Name+`"`) {
				t.Errorf("%s: schema %s lacks %q", spec.Name, schema, p.Name)
			}
		}
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", spec.Name)
		}
	}
	if ask, ok := got["ask"]; !ok || !strings.Contains(fmt.Sprint(ask.InputSchema), "question") {
		t.Errorf("ask: %+v", ask)
	}
	if len(list.Tools) != len(agent.Tools())+1 {
		t.Errorf("%d tools", len(list.Tools))
	}
}

func TestSearchAndReadCarryPathsAndLines(t *testing.T) {
	cs, _ := connect(t, Options{Agent: agent.Config{NoModel: true}})
	res, text := call(t, cs, "search_code", map[string]any{"query": "entries expire ttl"})
	if res.IsError || !strings.Contains(text, "cache/cache.go:") {
		t.Fatalf("search_code: %s", text)
	}
	var out struct {
		Evidence []agent.Evidence `json:"evidence"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Evidence) == 0 || out.Evidence[0].Path != "cache/cache.go" || out.Evidence[0].Start < 1 {
		t.Errorf("structured: %s", b)
	}
	res, text = call(t, cs, "read_file", map[string]any{"path": "cache/cache.go", "start_line": 16, "end_line": 18})
	if res.IsError || !strings.Contains(text, "cache/cache.go:16-18") || !strings.Contains(text, "func (c *Cache) Get") {
		t.Errorf("read_file: %s", text)
	}
	for name, args := range map[string]any{
		"grep":        map[string]any{"pattern": `time\.Now`},
		"list_files":  map[string]any{"glob": "**/*.go"},
		"find_symbol": map[string]any{"name": "Get"},
		"outline":     map[string]any{"path": "cache/cache.go"},
	} {
		if res, text := call(t, cs, name, args); res.IsError || !strings.Contains(text, "cache") {
			t.Errorf("%s: %s", name, text)
		}
	}
	// Every use of the type in code: its method's receiver and the
	// qualified use in another package, not its own declaration.
	res, text = call(t, cs, "find_references", map[string]any{"name": "cache.Cache"})
	if res.IsError || !strings.HasPrefix(text, "2 uses in 2 files (code only, tests left out):\n") ||
		!strings.Contains(text, "cache/cache.go:17:10: func (c *Cache) Get") || !strings.Contains(text, "cmd/main.go:6:12: _ = cache.Cache{}") {
		t.Errorf("find_references: %s", text)
	}
}

// TestBadArgumentsAreToolErrors: every bad call gets an error result the
// model can act on, and the server keeps serving.
func TestBadArgumentsAreToolErrors(t *testing.T) {
	cs, _ := connect(t, Options{Agent: agent.Config{NoModel: true}})
	for _, tt := range []struct {
		tool string
		args any
		want string
	}{
		{"read_file", map[string]any{"path": "../../etc/passwd"}, "outside"},
		{"read_file", map[string]any{"path": "/etc/passwd"}, "outside"},
		{"read_file", map[string]any{"path": "cache/cache.go", "start_line": "abc"}, "must be an integer"},
		{"read_file", map[string]any{}, `missing argument "path"`},
		{"search_code", map[string]any{"query": []any{"a"}}, "must be a string"},
		{"grep", map[string]any{"pattern": "([a-"}, "grep"},
		{"outline", map[string]any{"path": "cache.go"}, "files with that name: cache/cache.go"},
		{"ask", map[string]any{}, `missing argument "question"`},
		{"ask", map[string]any{"question": "why?", "line": 3}, `"line" needs "path"`},
		{"ask", map[string]any{"question": "why?", "path": "nope.go"}, "no such file"},
		{"ask", map[string]any{"question": "why?", "line": "x"}, "positive integer"},
	} {
		res, text := call(t, cs, tt.tool, tt.args)
		if !res.IsError || !strings.HasPrefix(text, "error: ") || !strings.Contains(text, tt.want) {
			t.Errorf("%s %v: error %v %q, want an error with %q", tt.tool, tt.args, res.IsError, text, tt.want)
		}
	}
	if res, _ := call(t, cs, "list_files", map[string]any{"glob": "*"}); res.IsError {
		t.Error("the server stopped serving")
	}
}

func TestSecretsStayOut(t *testing.T) {
	cs, dir := connect(t, Options{Agent: agent.Config{NoModel: true}})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": ".env"}},
		{"grep", map[string]any{"pattern": "DB_PASSWORD"}},
		{"search_code", map[string]any{"query": "DB_PASSWORD"}},
		{"list_files", map[string]any{"glob": "**"}},
		{"ask", map[string]any{"question": "what is DB_PASSWORD"}},
	} {
		_, text := call(t, cs, c.tool, c.args)
		if strings.Contains(text, "hunter2") {
			t.Errorf("%s returned the secret: %s", c.tool, text)
		}
	}
	// Reading it says it is withheld, not that it does not exist.
	if res, text := call(t, cs, "read_file", map[string]any{"path": ".env"}); !res.IsError || !strings.Contains(text, ".env: withheld: it is a secret file") {
		t.Errorf("read_file .env: %s", text)
	}
	_, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: workspace.FileURI(filepath.Join(dir, ".env"))})
	if err == nil {
		t.Error("the .env resource was read")
	}
}

func TestAskInRetrievalMode(t *testing.T) {
	cs, dir := connect(t, Options{Agent: agent.Config{NoModel: true}})
	res, text := call(t, cs, "ask", map[string]any{"question": "how do entries expire?"})
	if res.IsError || !strings.Contains(text, "Citations:\n[1] cache/cache.go:") {
		t.Fatalf("ask: %s", text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Mode      string   `json:"mode"`
		URIs      []string `json:"citationUris"`
		Citations []struct {
			Path string `json:"path"`
		} `json:"citations"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Mode != "retrieval" || len(out.URIs) == 0 || len(out.Citations) != len(out.URIs) {
		t.Fatalf("structured: %s", b)
	}
	// The citation's URI opens as a resource.
	rr, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: out.URIs[0]})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "entries expire after the ttl") {
		t.Errorf("resource %s: %v", out.URIs[0], err)
	}
	if !strings.HasPrefix(out.URIs[0], workspace.FileURI(dir)) {
		t.Errorf("uri %s", out.URIs[0])
	}
	// Outside the roots: not found.
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "file:///etc/passwd"}); err == nil {
		t.Error("/etc/passwd was read")
	}
}

func TestAskWithAModel(t *testing.T) {
	f := modeltest.NewOpenAI(t,
		modeltest.Calls("search_code", `{"query":"expire ttl"}`),
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("Entries expire after the ttl [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	progress := make(chan string, 10)
	cs, _ := connectWith(t, Options{Agent: agent.Config{Provider: agent.ProviderOpenAI, BaseURL: f.URL, Model: "qwen3:4b"}},
		&sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			progress <- req.Params.Message
		}})
	params := &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "how do entries expire?", "path": "cache/cache.go", "line": 17}}
	params.SetProgressToken("ask-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError || !strings.HasPrefix(text, "Entries expire after the ttl [1].") || !strings.Contains(text, "[1] cache/cache.go:") {
		t.Fatalf("ask: %s", text)
	}
	if msg := f.Requests()[0].Messages[1].Content; !strings.Contains(msg, "asked in cache/cache.go at line 17") {
		t.Errorf("the cursor did not reach the model: %q", msg)
	}
	select {
	case msg := <-progress:
		if !strings.HasPrefix(msg, "search_code: ") {
			t.Errorf("progress %q", msg)
		}
	case <-time.After(5 * time.Second):
		t.Error("no progress notification for the tool call")
	}
}

// TestFilesAreWatched: a file written after the index opened is found
// without a restart, and a deleted one is gone.
func TestFilesAreWatched(t *testing.T) {
	cs, dir := connect(t, Options{Watch: true, Agent: agent.Config{NoModel: true}})
	if _, text := call(t, cs, "list_files", map[string]any{"glob": "**"}); !strings.Contains(text, "cache/cache.go") {
		t.Fatalf("not ready: %s", text)
	}
	if err := os.WriteFile(filepath.Join(dir, "cache", "evict.go"), []byte("package cache\n\n// Quuxevict drops the oldest entry.\nfunc Quuxevict() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		_, text := call(t, cs, "grep", map[string]any{"pattern": "Quuxevict"})
		return strings.Contains(text, "cache/evict.go:3")
	})
	if err := os.MkdirAll(filepath.Join(dir, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "store", "disk.go"), []byte("package store\n\nfunc Quuxdisk() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		_, text := call(t, cs, "find_symbol", map[string]any{"name": "Quuxdisk"})
		return strings.Contains(text, "store/disk.go")
	})
	if err := os.Remove(filepath.Join(dir, "cache", "evict.go")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		_, text := call(t, cs, "grep", map[string]any{"pattern": "Quuxevict"})
		return !strings.Contains(text, "cache/evict.go")
	})
	// A whole folder removed: its files leave the index.
	if err := os.RemoveAll(filepath.Join(dir, "store")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		_, text := call(t, cs, "list_files", map[string]any{"glob": "store/**"})
		return !strings.Contains(text, "store/disk.go")
	})
}

// TestStreamableHTTP: the same server over the streamable HTTP transport.
func TestStreamableHTTP(t *testing.T) {
	dir := fixture.Write(t, "testdata/workspace.txtar")
	srv := New(Options{Roots: []string{dir}, CacheDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Agent: agent.Config{NoModel: true}})
	defer srv.Close()
	hs := httptest.NewServer(srv.HTTPHandler())
	defer hs.Close()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, text := call(t, cs, "search_code", map[string]any{"query": "entries expire ttl"})
	if res.IsError || !strings.Contains(text, "cache/cache.go:") {
		t.Errorf("search_code over HTTP: %s", text)
	}
}

// waitFor polls ok until it holds: nothing tells an MCP client that the
// file watcher's change reached the index. The deadline only guards
// against a hang.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(mcpclient.Patience)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("the change never reached the index")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClientRoots: without --root the workspace is the client's roots.
func TestClientRoots(t *testing.T) {
	dir := fixture.Write(t, "testdata/workspace.txtar")
	srv := New(Options{CacheDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Agent: agent.Config{NoModel: true}, legacyProtocol: true})
	defer srv.Close()
	ct, st := sdk.NewInMemoryTransports()
	if _, err := srv.Connect(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	//lint:ignore SA1019 the server still serves clients that send roots
	client.AddRoots(&sdk.Root{URI: workspace.FileURI(dir), Name: "shop"})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, text := call(t, cs, "list_files", map[string]any{"glob": "**/*.go"})
	if !strings.Contains(text, "cache/cache.go") || !strings.Contains(text, "cmd/main.go") {
		t.Errorf("list_files over the client's roots: %s", text)
	}
}
