package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/askls/askls/internal/lspclient"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// captureServer starts an editor and returns the server behind it.
func captureServer(t *testing.T, setup editorSetup) (*fakeEditor, *server) {
	t.Helper()
	var srv *server
	testHook = func(s *server) { srv = s }
	defer func() { testHook = nil }()
	e := startEditor(t, setup)
	return e, srv
}

func (s *server) docText(t *testing.T, uri string) string {
	t.Helper()
	d, ok := s.docs.get(canonURI(uri))
	if !ok {
		t.Fatalf("%s is not open", uri)
	}
	return string(d.text.Bytes())
}

// sync makes sure every notification sent before it has been handled: a
// request is handled only after the messages before it.
func (e *fakeEditor) sync() {
	e.t.Helper()
	var out any
	if err := e.call("workspace/symbol", map[string]any{"query": "zzz-sync"}, &out); err != nil {
		e.t.Fatalf("sync: %v", err)
	}
}

func TestBadInputIsAnsweredAndStateKept(t *testing.T) {
	e, s := captureServer(t, editorSetup{})
	text := "package shop\n\n// 😀 price\nvar x = 1\n"
	e.open("shop/new.go", text)

	// Unknown request: MethodNotFound, with the method named.
	var out any
	err := e.call("textDocument/hover", map[string]any{}, &out)
	if rpcCode(err) != jsonrpc2.MethodNotFound || !strings.Contains(err.Error(), "textDocument/hover") {
		t.Errorf("unknown method: %v", err)
	}
	// Unknown notification: ignored.
	e.notify("custom/whatever", map[string]any{"x": 1})
	// Malformed params: InvalidParams saying what was wrong.
	err = e.call("workspace/symbol", map[string]any{"query": 42}, &out)
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "workspace/symbol") {
		t.Errorf("malformed params: %v", err)
	}
	err = e.call("askls/ask", "not an object", &out)
	if rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("askls/ask with a string: %v", err)
	}
	err = e.call("askls/ask", map[string]any{"question": "  "}, &out)
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty question: %v", err)
	}
	err = e.call("workspace/executeCommand", map[string]any{"command": "askls.nope"}, &out)
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "askls.nope") {
		t.Errorf("unknown command: %v", err)
	}
	// Asked from a file outside the workspace (a library source reached
	// by go-to-definition): answered from the workspace, without the
	// cursor and without reading that file, and it says so.
	var outside struct {
		Answer, Notice string
		Citations      []struct{ Location protocol.Location }
	}
	err = e.call("workspace/executeCommand", map[string]any{"command": "askls.ask", "arguments": []any{"where is the total computed?", "/etc/passwd", 1, 1}}, &outside)
	if err != nil || !strings.Contains(outside.Notice, "/etc/passwd is outside the workspace roots") || !strings.Contains(outside.Answer, "without the cursor") {
		t.Errorf("asked from a path outside the workspace: %v, notice %q", err, outside.Notice)
	}
	for _, c := range outside.Citations {
		if !strings.HasPrefix(string(c.Location.URI), e.uri("")) {
			t.Errorf("a citation outside the workspace: %s", c.Location.URI)
		}
	}
	err = e.call("askls/ask", map[string]any{"question": "where is the total computed?", "textDocument": map[string]any{"uri": "file:///etc/passwd"},
		"position": map[string]any{"line": 0, "character": 0}}, &outside)
	if err != nil || !strings.Contains(outside.Notice, "outside the workspace roots") {
		t.Errorf("askls/ask from a file outside the workspace: %v, notice %q", err, outside.Notice)
	}
	err = e.call("workspace/executeCommand", map[string]any{"command": "askls.showAnswer", "arguments": []any{"no-such"}}, &out)
	if rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("showAnswer unknown id: %v", err)
	}
	// Notifications with bad params, for an unopened document, a range
	// past the end, a version going backwards.
	e.notify("textDocument/didChange", map[string]any{"textDocument": 7})
	e.change("shop/never-opened.go", 2, protocol.Range{}, "x")
	e.change("shop/new.go", 2, protocol.Range{Start: protocol.Position{Line: 99, Character: 0}, End: protocol.Position{Line: 99, Character: 5}}, "// end\n")
	e.change("shop/new.go", 1, protocol.Range{Start: protocol.Position{Line: 2, Character: 6}, End: protocol.Position{Line: 2, Character: 11}}, "cost")
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": e.uri("shop/never-opened.go")}})
	e.sync()

	// The range past the end is rejected whole, the client is told, and
	// the later incremental edit waits for the full text.
	want := "package shop\n\n// 😀 price\nvar x = 1\n"
	if got := s.docText(t, e.uri("shop/new.go")); got != want {
		t.Errorf("document after bad input:\n%q\nwant\n%q", got, want)
	}
	e.waitFor("window/showMessage", func(m json.RawMessage) bool {
		return strings.Contains(string(m), "rejected an edit") && strings.Contains(string(m), "line 99 is past the end")
	})
	// Log lines reach the client from their own goroutine (logging.go):
	// wait for one rather than expect it by now.
	e.waitFor("window/logMessage", nil)
	e.shutdown()
}

// raceEnabled is set under -race, where a 20 MB document takes minutes.
var raceEnabled bool

func TestBurstAndHugeDocument(t *testing.T) {
	e, s := captureServer(t, editorSetup{})
	huge := strings.Repeat("// filler line with some text in it, 😀 and more text\n", 20<<20/55)
	if raceEnabled {
		huge = huge[:1<<20]
	}
	e.open("shop/huge.go", huge)
	e.open("shop/burst.go", "")
	for i := 0; i < 5000; i++ {
		line := uint32(i)
		e.change("shop/burst.go", i+2, protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}, fmt.Sprintf("l%d 🎉\n", i))
	}
	e.sync()
	got := s.docText(t, e.uri("shop/burst.go"))
	if n := strings.Count(got, "\n"); n != 5000 || !strings.HasPrefix(got, "l0 🎉\nl1 🎉\n") || !strings.HasSuffix(got, "l4999 🎉\n") {
		t.Errorf("burst: %d lines, starts %q", n, got[:min(len(got), 30)])
	}
	if len(s.docText(t, e.uri("shop/huge.go"))) != len(huge) {
		t.Error("huge document not kept")
	}
	e.shutdown()
}

func TestMalformedFrameIsSkipped(t *testing.T) {
	c := lspclient.Pipe(func(conn io.ReadWriteCloser) error {
		return Serve(context.Background(), conn, Options{Logger: testLogger(t), CacheDir: t.TempDir()})
	}, lspclient.Options{})
	write := func(body string) {
		t.Helper()
		if err := c.WriteRaw([]byte(frame(body))); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize",`) // not JSON
	write(`{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"x"}}`)
	r, err := c.Wait(context.Background(), "the reply to id 2", lspclient.IsReply(2))
	if err != nil {
		t.Fatal(err)
	}
	if rpcCode(r.Err) != -32002 || !strings.Contains(r.Err.Error(), "not initialized") {
		t.Fatalf("after a broken frame: %v, want a not-initialized error (-32002) for id 2", r)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("the server did not stop when the stream closed: %v", err)
	}
}
