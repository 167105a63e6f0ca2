package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/internal/mcpclient"
	"github.com/askls/askls/internal/ollamatest"
)

// TestMCPOverStdio runs the real `askls mcp` (this test binary re-executed
// as askls) and talks to it with the official Go SDK client over stdio.
func TestMCPOverStdio(t *testing.T) {
	root := ollamatest.Fixture(t, "retry")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(os.Args[0], "mcp", "--root", root, "--no-model")
	cmd.Env = asklsEnv(t, nil)
	client := sdk.NewClient(&sdk.Implementation{Name: "askls-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to askls mcp: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "search_code") || !strings.Contains(got, "ask") || !strings.Contains(got, "find_references") || len(names) != 8 {
		t.Errorf("tools %s", got)
	}
	text := func(res *sdk.CallToolResult) string {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": "Retry backoff delay"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "retry/retry.go:") {
		t.Fatalf("search_code: %v %s", err, text(res))
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "How does Retry back off between attempts?"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "Citations:\n[1] retry/retry.go:") {
		t.Fatalf("ask: %v %s", err, text(res))
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "../../../etc/passwd"}})
	if err != nil || !res.IsError {
		t.Errorf("read_file outside: %v %s", err, text(res))
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("the server stopped after a bad call: %v", err)
	}
}

// TestMCPStdioSurvivesBadLines: the real `askls mcp` over stdio answers a
// line that is not a JSON-RPC 2.0 message with an error and serves the
// next request (the SDK's own stdio transport ended the session).
func TestMCPStdioSurvivesBadLines(t *testing.T) {
	root := ollamatest.Fixture(t, "retry")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "mcp", "--root", root, "--no-model", "--no-watch")
	cmd.Env = asklsEnv(t, nil)
	c, err := mcpclient.Exec(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	next := func(what string) mcpclient.Message {
		t.Helper()
		m, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return m
	}
	send := func(line string) {
		t.Helper()
		if err := c.Send(line); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	next("initialize")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, line := range []string{`{not json}`, `[]`, `{"jsonrpc":"1.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`} {
		send(line)
		if m := next(line); m.Error == nil {
			t.Errorf("%s: answered %s, want an error", line, m.Line)
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, 10+i))
		if m := next("tools/list after " + line); m.ID != float64(10+i) || m.Result == nil {
			t.Errorf("tools/list after %s: %s", line, m.Line)
		}
	}
}
