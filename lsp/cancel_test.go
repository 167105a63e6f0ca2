package lsp

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/workspace"
)

func TestCancelEndsTheModelStreamAndReplies32800(t *testing.T) {
	fo := modeltest.NewOllama(t,
		replyWith(modeltest.Text("Thinking "), modeltest.Chunk{Hold: true}),
		replyWith(modeltest.Text("Thinking again "), modeltest.Chunk{Hold: true}))
	root := writeFixture(t, "workspace.txtar")
	serverEnd, clientEnd := net.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), serverEnd, Options{
			Logger: testLogger(t), CacheDir: t.TempDir(), AnswerDir: t.TempDir(),
			Agent: agent.Config{Host: fo.URL},
		})
	}()
	c := newRawClient(t, clientEnd)
	c.send(1, "initialize", map[string]any{
		"rootUri":      workspace.FileURI(root),
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	})
	c.result(1, nil)
	c.notify("initialized", map[string]any{})
	c.waitNote("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"end"`) && strings.Contains(string(p), "files")
	}, 60*time.Second)

	c.send(7, "askls/ask", map[string]any{"question": "How does the cache expire?"})
	select {
	case <-fo.Started:
	case <-time.After(30 * time.Second):
		t.Fatal("the model was never asked")
	}
	// A request sent behind the held ask is answered first.
	c.send(8, "workspace/symbol", map[string]any{"query": "Cache"})
	c.result(8, nil)

	c.notify("$/cancelRequest", map[string]any{"id": 7})
	r := c.wait(7, 30*time.Second)
	var werr *jsonrpc2.Error
	if e, ok := r.Err().(*jsonrpc2.Error); ok {
		werr = e
	}
	if werr == nil || werr.Code != protocol.CodeRequestCancelled {
		t.Errorf("cancelled ask replied %v, want code -32800", r.Err())
	}
	select {
	case <-fo.Cancelled:
	case <-time.After(10 * time.Second):
		t.Error("the model stream was not closed on cancel")
	}
	// The user cancelling the answer's progress also ends it with -32800.
	c.send(10, "askls/ask", map[string]any{"question": "How does the cache expire?", "workDoneToken": "w10"})
	<-fo.Started
	c.waitNote("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"w10"`) && strings.Contains(string(p), `"cancellable":true`)
	}, 10*time.Second)
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": "w10"})
	if e, ok := c.wait(10, 30*time.Second).Err().(*jsonrpc2.Error); !ok || e.Code != protocol.CodeRequestCancelled {
		t.Errorf("ask cancelled from its progress: %v, want -32800", e)
	}

	// Cancelling an unknown or finished request is harmless.
	c.notify("$/cancelRequest", map[string]any{"id": 7})
	c.notify("$/cancelRequest", map[string]any{"id": "nope"})
	c.send(9, "shutdown", nil)
	c.result(9, nil)
	c.notify("exit", nil)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}
