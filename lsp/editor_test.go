package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/workspace"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/askls/askls/agent"
)

// fakeEditor is a real LSP client over net.Pipe: protocol.ServerDispatcher
// for the typed calls, the raw jsonrpc2 connection for everything else. It
// records every notification and server→client request, and answers the
// requests the server makes (progress create, showDocument, registration,
// code lens refresh, configuration).
type fakeEditor struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	server protocol.Server
	root   string
	done   chan error

	mu       sync.Mutex
	messages []message // notifications and requests from the server, in order
	changed  chan struct{}
}

type message struct {
	method string
	params json.RawMessage
}

type editorSetup struct {
	caps     map[string]any // client capabilities; nil: a VS Code-like set
	initOpts map[string]any
	opts     Options
}

// vscodeCaps is what a full-featured client advertises.
func vscodeCaps() map[string]any {
	return map[string]any{
		"window":       map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
		"textDocument": map[string]any{"codeLens": map[string]any{"dynamicRegistration": false}},
		"workspace": map[string]any{
			"codeLens":              map[string]any{"refreshSupport": true},
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
			"workspaceFolders":      true,
			"configuration":         true,
		},
	}
}

// writeFixture writes a txtar archive into a new directory.
func writeFixture(t testing.TB, name string) string {
	t.Helper()
	return fixture.Write(t, filepath.Join("testdata", name))
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("server: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// startEditor starts a server on one end of a pipe and an initialized
// client on the other, with the workspace fixture as its folder.
func startEditor(t *testing.T, setup editorSetup) *fakeEditor {
	t.Helper()
	root := writeFixture(t, "workspace.txtar")
	return startEditorAt(t, root, setup)
}

func startEditorAt(t testing.TB, root string, setup editorSetup) *fakeEditor {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	opts := setup.opts
	opts.Logger = testLogger(t)
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	if opts.AnswerDir == "" {
		opts.AnswerDir = t.TempDir()
	}
	if opts.Agent == (agent.Config{}) {
		opts.Agent = agent.Config{NoModel: true}
	}
	e := &fakeEditor{t: t, root: root, done: make(chan error, 1), changed: make(chan struct{}, 1)}
	go func() { e.done <- Serve(context.Background(), serverEnd, opts) }()

	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientEnd))
	e.conn.Go(context.Background(), e.handle)
	e.server = protocol.ServerDispatcher(e.conn, zap.NewNop())
	t.Cleanup(func() {
		e.conn.Close()
		select {
		case <-e.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop after the connection closed")
		}
	})

	caps := setup.caps
	if caps == nil {
		caps = vscodeCaps()
	}
	params := map[string]any{
		"processId":             os.Getpid(),
		"rootUri":               workspace.FileURI(root),
		"capabilities":          caps,
		"initializationOptions": setup.initOpts,
		"clientInfo":            map[string]any{"name": "fake-editor", "version": "1"},
		"workspaceFolders":      []map[string]any{{"uri": workspace.FileURI(root), "name": filepath.Base(root)}},
	}
	var res protocol.InitializeResult
	if err := e.call("initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := e.conn.Notify(context.Background(), "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *fakeEditor) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	e.mu.Lock()
	e.messages = append(e.messages, message{req.Method(), append(json.RawMessage(nil), req.Params()...)})
	e.mu.Unlock()
	select {
	case e.changed <- struct{}{}:
	default:
	}
	switch req.Method() {
	case "window/showDocument":
		return reply(ctx, map[string]bool{"success": true}, nil)
	case "workspace/configuration":
		return reply(ctx, []any{map[string]any{}}, nil)
	}
	return reply(ctx, nil, nil)
}

// call sends a request and waits for its reply. The deadline only keeps
// a hung server from hanging the test: under -race on a loaded machine a
// request queued behind thousands of edits takes tens of seconds.
func (e *fakeEditor) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

func (e *fakeEditor) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("notify %s: %v", method, err)
	}
}

// waitFor waits until the server has sent a message with method for which
// ok returns true, and returns its params.
func (e *fakeEditor) waitFor(method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.t.Helper()
	return e.waitForWithin(60*time.Second, method, ok)
}

func (e *fakeEditor) waitForWithin(d time.Duration, method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.t.Helper()
	deadline := time.After(d)
	for {
		e.mu.Lock()
		for _, m := range e.messages {
			if m.method == method && (ok == nil || ok(m.params)) {
				e.mu.Unlock()
				return m.params
			}
		}
		e.mu.Unlock()
		select {
		case <-e.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			e.t.Fatalf("timed out waiting for %s", method)
		}
	}
}

func (e *fakeEditor) received(method string) []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []json.RawMessage
	for _, m := range e.messages {
		if m.method == method {
			out = append(out, m.params)
		}
	}
	return out
}

// waitIndexed waits for the end of the indexing progress.
func (e *fakeEditor) waitIndexed() {
	e.t.Helper()
	e.waitIndexedWithin(60 * time.Second)
}

func (e *fakeEditor) waitIndexedWithin(d time.Duration) {
	e.t.Helper()
	e.waitForWithin(d, "$/progress", func(p json.RawMessage) bool {
		var v struct {
			Value struct{ Kind, Message string }
		}
		json.Unmarshal(p, &v)
		return v.Value.Kind == "end" && strings.Contains(v.Value.Message, "files")
	})
}

func (e *fakeEditor) uri(rel string) string { return workspace.FileURI(filepath.Join(e.root, rel)) }

func (e *fakeEditor) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *fakeEditor) open(rel, text string) {
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": e.uri(rel), "languageId": "go", "version": 1, "text": text,
	}})
}

func (e *fakeEditor) change(rel string, version int, r protocol.Range, text string) {
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": e.uri(rel), "version": version},
		"contentChanges": []map[string]any{{"range": r, "text": text}},
	})
}

func (e *fakeEditor) shutdown() {
	e.t.Helper()
	if err := e.call("shutdown", nil, nil); err != nil {
		e.t.Fatalf("shutdown: %v", err)
	}
	e.notify("exit", nil)
	select {
	case err := <-e.done:
		if err != nil {
			e.t.Errorf("Serve after shutdown+exit: %v", err)
		}
		e.done <- nil
	case <-time.After(10 * time.Second):
		e.t.Fatal("server did not exit")
	}
}

// rpcCode returns the JSON-RPC error code of err, or 0.
func rpcCode(err error) jsonrpc2.Code {
	if e, ok := err.(*jsonrpc2.Error); ok {
		return e.Code
	}
	return 0
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var _ = fmt.Sprintf
