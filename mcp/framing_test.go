package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/fixture"
)

// rawClient speaks newline-delimited JSON-RPC to a server over pipes, line
// by line, so that a test can send what no SDK client would.
type rawClient struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Scanner
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("sending %.60s: %v", line, err)
	}
}

// next reads the server's next message.
func (c *rawClient) next() map[string]any {
	c.t.Helper()
	if !c.out.Scan() {
		c.t.Fatalf("the server ended the session: %v", c.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
		c.t.Fatalf("the server wrote %q: %v", c.out.Text(), err)
	}
	return m
}

// startLineServer runs a Server on a fixture over a LineTransport with a
// line limit of limit bytes, and initializes the session.
func startLineServer(t *testing.T, limit int) *rawClient {
	dir := fixture.Write(t, "testdata/workspace.txtar")
	srv := New(Options{Roots: []string{dir}, CacheDir: t.TempDir(), Agent: agent.Config{NoModel: true},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(srv.Close)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, &LineTransport{In: inR, Out: outW, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxLine: limit})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not end after its input did")
		}
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	c := &rawClient{t: t, in: inW, out: sc}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := c.next(); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
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
		code float64
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
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != b.code || m["id"] != b.id || m["jsonrpc"] != "2.0" {
			t.Errorf("line %d %.50q: answered %v, want error %v with id %v", i, b.line, m, b.code, b.id)
		}
		// The session goes on: a good request after each bad line.
		c.send(`{"jsonrpc":"2.0","id":100,"method":"tools/list"}`)
		if m := c.next(); m["id"] != 100.0 || m["result"] == nil {
			t.Fatalf("after line %d %.50q: tools/list answered %v", i, b.line, m)
		}
	}
	// A blank line is no message: nothing is answered for it.
	c.send("")
	c.send(`{"jsonrpc":"2.0","id":101,"method":"tools/list"}`)
	if m := c.next(); m["id"] != 101.0 {
		t.Errorf("after a blank line: %v", m)
	}
}
