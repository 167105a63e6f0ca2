package mcp

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/internal/mcpclient"
)

// lineClient is the shared raw MCP client (internal/mcpclient) with the
// test's failures.
type lineClient struct {
	t *testing.T
	c *mcpclient.Client
}

func (c lineClient) send(line string) {
	c.t.Helper()
	if err := c.c.Send(line); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the server's next message.
func (c lineClient) next() mcpclient.Message {
	c.t.Helper()
	m, err := c.c.Next(context.Background())
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// startLineServer runs a Server on a fixture over a LineTransport with a
// line limit of limit bytes, and initializes the session.
func startLineServer(t *testing.T, limit int) lineClient {
	dir := fixture.Write(t, "testdata/workspace.txtar")
	srv := New(Options{Roots: []string{dir}, CacheDir: t.TempDir(), Agent: agent.Config{NoModel: true},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	mc := mcpclient.Pipe(func(in io.Reader, out io.Writer) error {
		return srv.Run(ctx, &LineTransport{In: in, Out: out, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxLine: limit})
	})
	t.Cleanup(func() {
		err := mc.Close()
		cancel()
		if err != nil {
			t.Error(err)
		}
	})
	c := lineClient{t: t, c: mc}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := c.next(); m.ID != 1.0 || m.Result == nil {
		t.Fatalf("initialize: %s", m.Line)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// TestBadLinesAreAnsweredAndSessionGoesOn: each line the SDK would end the
// session on is answered with a JSON-RPC error (with its id when it has a
// usable one) and the next request is served.
func TestBadLinesAreAnsweredAndSessionGoesOn(t *testing.T) {
	const limit = 4096
	c := startLineServer(t, limit)
	bad := []struct {
		line string
		id   any // the id the error must carry (nil: null)
		code int
	}{
		{`{not json}`, nil, codeParseError},
		{`[]`, nil, codeInvalidRequest},
		{`[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, nil, codeInvalidRequest},
		{`{"jsonrpc":"1.0","id":8,"method":"tools/list"}`, 8.0, codeInvalidRequest},
		{`{"id":9,"method":"tools/list"}`, 9.0, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, nil, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, nil, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":"s","method":3}`, "s", codeInvalidRequest},
		{`{"jsonrpc":"2.0","result":{}}`, nil, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":10,"error":"boom"}`, 10.0, codeInvalidRequest},
		{`"jsonrpc"`, nil, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/list"} {"x":1}`, nil, codeParseError},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/list","params":` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}`, nil, codeParseError},
		{`{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", limit) + `"}}`, nil, codeInvalidRequest},
	}
	for i, b := range bad {
		c.send(b.line)
		m := c.next()
		if m.Error == nil || m.Error.Code != b.code || m.ID != b.id || m.JSONRPC != "2.0" {
			t.Errorf("line %d %.50q: answered %s, want error %v with id %v", i, b.line, m.Line, b.code, b.id)
		}
		// The session goes on: a good request after each bad line.
		c.send(`{"jsonrpc":"2.0","id":100,"method":"tools/list"}`)
		if m := c.next(); m.ID != 100.0 || m.Result == nil {
			t.Fatalf("after line %d %.50q: tools/list answered %s", i, b.line, m.Line)
		}
	}
	// A blank line is no message: nothing is answered for it.
	c.send("")
	c.send(`{"jsonrpc":"2.0","id":101,"method":"tools/list"}`)
	if m := c.next(); m.ID != 101.0 {
		t.Errorf("after a blank line: %s", m.Line)
	}
}
