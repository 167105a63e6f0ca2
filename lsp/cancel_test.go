package lsp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/lspclient"
	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/workspace"
)

func TestCancelEndsTheModelStreamAndReplies32800(t *testing.T) {
	fo := modeltest.NewOllama(t,
		replyWith(modeltest.Text("Thinking "), modeltest.Chunk{Hold: true}),
		replyWith(modeltest.Text("Thinking again "), modeltest.Chunk{Hold: true}))
	root := writeFixture(t, "workspace.txtar")
	ctx := context.Background()
	c := lspclient.Pipe(func(conn io.ReadWriteCloser) error {
		return Serve(ctx, conn, Options{
			Logger: testLogger(t), CacheDir: t.TempDir(), AnswerDir: t.TempDir(),
			Agent: agent.Config{Host: fo.URL},
		})
	}, lspclient.Options{})
	t.Cleanup(func() { c.Close() })
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Call(ctx, "initialize", map[string]any{
		"rootUri":      workspace.FileURI(root),
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	}, nil))
	must(c.Notify("initialized", map[string]any{}))
	_, err := c.Wait(ctx, "the end of indexing", lspclient.IsMethod("$/progress", indexingEnded))
	must(err)

	ask, err := c.Request("askls/ask", map[string]any{"question": "How does the cache expire?"})
	must(err)
	select {
	case <-fo.Started:
	case <-time.After(30 * time.Second):
		t.Fatal("the model was never asked")
	}
	// A request sent behind the held ask is answered first.
	must(c.Call(ctx, "workspace/symbol", map[string]any{"query": "Cache"}, nil))

	must(c.Notify("$/cancelRequest", map[string]any{"id": ask}))
	r, err := c.Reply(ctx, ask)
	must(err)
	if rpcCode(r.Err) != protocol.CodeRequestCancelled {
		t.Errorf("cancelled ask replied %v, want code -32800", r.Err)
	}
	select {
	case <-fo.Cancelled:
	case <-time.After(10 * time.Second):
		t.Error("the model stream was not closed on cancel")
	}
	// The user cancelling the answer's progress also ends it with -32800.
	ask, err = c.Request("askls/ask", map[string]any{"question": "How does the cache expire?", "workDoneToken": "w10"})
	must(err)
	<-fo.Started
	_, err = c.Wait(ctx, "the ask's cancellable progress", lspclient.IsMethod("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"w10"`) && strings.Contains(string(p), `"cancellable":true`)
	}))
	must(err)
	must(c.Notify("window/workDoneProgress/cancel", map[string]any{"token": "w10"}))
	if r, err := c.Reply(ctx, ask); err != nil || rpcCode(r.Err) != protocol.CodeRequestCancelled {
		t.Errorf("ask cancelled from its progress: %v %v, want -32800", r.Err, err)
	}

	// Cancelling an unknown or finished request is harmless.
	must(c.Notify("$/cancelRequest", map[string]any{"id": ask}))
	must(c.Notify("$/cancelRequest", map[string]any{"id": "nope"}))
	must(c.Shutdown(ctx))
}
