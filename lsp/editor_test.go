package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/internal/lspclient"
	"github.com/askls/askls/workspace"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
)

// fakeEditor is an editor over net.Pipe: the shared test client
// (internal/lspclient), which records every message from the server and
// answers its requests (progress create, showDocument, registration, code
// lens refresh, configuration), and the steps an editor takes.
type fakeEditor struct {
	t      testing.TB
	client *lspclient.Client
	root   string
}

type editorSetup struct {
	caps     map[string]any // client capabilities; nil: a VS Code-like set
	initOpts map[string]any
	opts     Options
	// patience bounds each wait for the server (lspclient's default:
	// 3 minutes); only a hung server should meet it.
	patience time.Duration
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
	serve := func(conn io.ReadWriteCloser) error { return Serve(context.Background(), conn, opts) }
	e := &fakeEditor{t: t, root: root, client: lspclient.Pipe(serve, lspclient.Options{Answer: answerAsAnEditor, Patience: setup.patience})}
	t.Cleanup(func() {
		if err := e.client.Close(); err != nil {
			t.Error(err)
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
	e.notify("initialized", map[string]any{})
	return e
}

// answerAsAnEditor answers the server's requests as VS Code does.
func answerAsAnEditor(method string, _ json.RawMessage) (any, error) {
	switch method {
	case "window/showDocument":
		return map[string]bool{"success": true}, nil
	case "workspace/configuration":
		return []any{map[string]any{}}, nil
	}
	return nil, nil
}

// call sends a request and waits for its reply.
func (e *fakeEditor) call(method string, params, result any) error {
	return e.client.Call(context.Background(), method, params, result)
}

func (e *fakeEditor) notify(method string, params any) {
	e.t.Helper()
	if err := e.client.Notify(method, params); err != nil {
		e.t.Fatalf("notify %s: %v", method, err)
	}
}

// waitFor waits until the server has sent a message with method for which
// ok returns true, and returns its params.
func (e *fakeEditor) waitFor(method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.t.Helper()
	m, err := e.client.Wait(context.Background(), method, lspclient.IsMethod(method, ok))
	if err != nil {
		e.t.Fatal(err)
	}
	return m.Params
}

// received returns the params of every message with method the server
// has sent so far.
func (e *fakeEditor) received(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range e.client.Messages() {
		if m.Kind != lspclient.Reply && m.Method == method {
			out = append(out, m.Params)
		}
	}
	return out
}

// waitForN waits until the server has sent n messages with method for
// which ok returns true (nil: any), and returns the params of them all.
func (e *fakeEditor) waitForN(method string, ok func(json.RawMessage) bool, n int) []json.RawMessage {
	e.t.Helper()
	var got []json.RawMessage
	seen := 0
	match := lspclient.IsMethod(method, ok)
	err := e.client.Await(context.Background(), fmt.Sprintf("%d× %s", n, method), func(msgs []lspclient.Message) bool {
		for _, m := range msgs[seen:] {
			if match(m) {
				got = append(got, m.Params)
			}
		}
		seen = len(msgs)
		return len(got) >= n
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return got
}

// until waits until cond, which reads what the server has sent, is true;
// it is asked again each time a message arrives.
func (e *fakeEditor) until(what string, cond func() bool) error {
	return e.client.Await(context.Background(), what, func([]lspclient.Message) bool { return cond() })
}

// waitIndexed waits for the end of the indexing progress.
func (e *fakeEditor) waitIndexed() {
	e.t.Helper()
	e.waitIndexedN(1)
}

// waitIndexedN waits for the n-th end of an indexing progress.
func (e *fakeEditor) waitIndexedN(n int) {
	e.t.Helper()
	e.waitForN("$/progress", indexingEnded, n)
}

// indexingEnded: a $/progress that ends indexing.
func indexingEnded(params json.RawMessage) bool {
	var v struct {
		Value struct{ Kind, Message string }
	}
	json.Unmarshal(params, &v)
	return v.Value.Kind == "end" && strings.Contains(v.Value.Message, "files")
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
	if err := e.client.Shutdown(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// served waits for Serve to return and returns its error.
func (e *fakeEditor) served() error {
	e.t.Helper()
	exitErr, err := e.client.WaitExit(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return exitErr
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
