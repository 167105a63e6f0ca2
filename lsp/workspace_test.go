package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/lspclient"
	"github.com/askls/askls/workspace"
)

func (e *fakeEditor) symbols(q string) []protocol.SymbolInformation {
	e.t.Helper()
	var syms []protocol.SymbolInformation
	if err := e.call("workspace/symbol", map[string]any{"query": q}, &syms); err != nil {
		e.t.Fatal(err)
	}
	return syms
}

func TestSeveralFoldersAndFolderChanges(t *testing.T) {
	second := writeFixture(t, "second.txtar")
	third := writeFixture(t, "second.txtar")
	os.Rename(filepath.Join(third, "billing", "invoice.go"), filepath.Join(third, "billing", "receipt.go"))
	os.WriteFile(filepath.Join(third, "billing", "receipt.go"), []byte("package billing\n\n// Receipt proves a payment.\ntype Receipt struct{}\n"), 0o644)

	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": workspace.FileURI(second), "name": "second"}}, "removed": []any{},
	}})
	e.waitIndexedN(2)
	res, err := e.ask(map[string]any{"question": "grand total includes tax"})
	if err != nil {
		t.Fatal(err)
	}
	want := workspace.FileURI(filepath.Join(second, "billing", "invoice.go"))
	found := false
	for _, c := range res.Citations {
		found = found || string(c.Location.URI) == want
	}
	if !found {
		t.Errorf("no citation in the second folder (%s): %s", want, mustJSON(res.Citations))
	}
	if syms := e.symbols("Discount"); len(syms) == 0 || string(syms[0].Location.URI) != e.uri("shop/price.go") {
		t.Errorf("first folder lost: %s", mustJSON(syms))
	}

	// Swap the second folder for a third.
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": workspace.FileURI(third), "name": "third"}},
		"removed": []any{map[string]any{"uri": workspace.FileURI(second), "name": "second"}},
	}})
	e.waitIndexedN(3)
	if syms := e.symbols("Receipt"); len(syms) == 0 || !strings.HasPrefix(string(syms[0].Location.URI), workspace.FileURI(third)) {
		t.Errorf("third folder not indexed: %s", mustJSON(syms))
	}
	for _, s := range e.symbols("Invoice") {
		if strings.HasPrefix(string(s.Location.URI), workspace.FileURI(second)) {
			t.Errorf("removed folder still answers: %s", mustJSON(s))
		}
	}
	e.shutdown()
}

func TestWatchedFilesAndCloseFallBackToDisk(t *testing.T) {
	e, s := captureServer(t, editorSetup{})
	// The client allows dynamic registration: the server registers a watcher.
	reg := e.waitFor("client/registerCapability", nil)
	if !strings.Contains(string(reg), "workspace/didChangeWatchedFiles") {
		t.Errorf("registration: %s", reg)
	}
	e.waitIndexed()

	// A file created on disk, announced by the watcher, becomes searchable.
	os.WriteFile(filepath.Join(e.root, "shop", "coupon.go"), []byte("package shop\n\n// Coupon is a one-time code.\ntype Coupon string\n"), 0o644)
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": e.uri("shop/coupon.go"), "type": 1}}})
	// The change is noted like an edit (Workspace.LastEdit) once the
	// notification is handled (sync: messages run in order); the index
	// says when that generation is published.
	e.sync()
	ctx, cancel := context.WithTimeout(context.Background(), lspclient.DefaultPatience)
	defer cancel()
	if err := s.ws.Current().WaitFor(ctx, s.ws.LastEdit()); err != nil {
		t.Fatalf("a watched new file never became searchable: %v", err)
	}
	if len(e.symbols("Coupon")) == 0 {
		t.Fatal("a watched new file is not searchable once its generation is published")
	}

	// A citation of text that exists only in the buffer goes stale when
	// the buffer is closed without saving: the file falls back to disk.
	orig := e.read("cache/cache.go")
	e.open("cache/cache.go", orig)
	lines := uint32(strings.Count(orig, "\n"))
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: lines}, End: protocol.Position{Line: lines}}, purgeFunc)
	res, err := e.ask(map[string]any{"question": "zebrafrob Purge"})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, c := range res.Citations {
		if string(c.Location.URI) == e.uri("cache/cache.go") && c.Location.Range.Start.Line > lines-1 {
			n = c.N
		}
	}
	if n == 0 {
		t.Fatalf("no citation of the unsaved Purge: %s", mustJSON(res.Citations))
	}
	if l := e.lensFor(res.ID, n); strings.Contains(l.Command.Title, "stale") {
		t.Fatalf("fresh citation already stale: %q", l.Command.Title)
	}
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": e.uri("cache/cache.go")}})
	if l := e.lensFor(res.ID, n); !strings.Contains(l.Command.Title, "stale") {
		t.Errorf("after closing unsaved: %q, want stale", l.Command.Title)
	}
	e.shutdown()
}

func TestConfiguration(t *testing.T) {
	e, s := captureServer(t, editorSetup{opts: Options{Agent: agent.Config{KeepAlive: "1m"}}, initOpts: map[string]any{
		"model": "qwen3:4b", "ollamaHost": "http://127.0.0.1:1", "numCtx": 8192, "maxHops": 3,
		"timeoutSeconds": 30, "exclude": []string{"README.md"}, "maxFileBytes": 200000,
		"codeLens": true, "citationsAsDiagnostics": "never", "logLevel": "debug",
	}})
	cfg := s.config()
	if cfg.Model != "qwen3:4b" || cfg.NumCtx != 8192 || cfg.MaxHops != 3 || cfg.TimeoutSeconds != 30 ||
		len(cfg.Exclude) != 1 || cfg.MaxFileBytes != 200000 || cfg.CitationsAsDiagnostics != "never" {
		t.Errorf("initializationOptions not applied: %+v", cfg)
	}
	ac := s.agentConfig(cfg)
	if ac.Model != "qwen3:4b" || ac.Host != "http://127.0.0.1:1" || ac.NumCtx != 8192 || ac.MaxHops != 3 || ac.Timeout != 30*time.Second {
		t.Errorf("agent config: %+v", ac)
	}
	e.waitIndexed()
	// exclude took effect in the index.
	res, err := e.ask(map[string]any{"question": "A shop with a cache whose entries expire"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "retrieval" || !strings.Contains(res.Notice, "127.0.0.1:1") {
		t.Errorf("unreachable host: mode %q notice %q", res.Mode, res.Notice)
	}
	for _, c := range res.Citations {
		if strings.HasSuffix(string(c.Location.URI), "README.md") {
			t.Errorf("excluded README.md cited")
		}
	}
	// A bad value is reported and the rest applied.
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"askls": map[string]any{"model": "other", "numCtx": "big"}}})
	e.sync()
	if cfg := s.config(); cfg.Model != "other" || cfg.NumCtx != 8192 {
		t.Errorf("after a partly bad change: %+v", cfg)
	}
	e.waitFor("window/logMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "numCtx") })
	var st statusResult
	if err := e.call("workspace/executeCommand", map[string]any{"command": "askls.status"}, &st); err != nil {
		t.Fatal(err)
	}
	if !st.Index.Ready || st.Index.Files == 0 || st.Index.Generation == 0 || st.Model.Reachable || len(st.Model.Problems) == 0 || st.Answers != 1 {
		t.Errorf("status: %s", mustJSON(st))
	}
	// The answer's log line carries its steps, timings and token counts.
	e.waitFor("window/logMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "msg=answer") && strings.Contains(string(p), "steps=") && strings.Contains(string(p), "evalTokens=")
	})

	// askls.reindex syncs again, with progress, and picks up disk changes.
	os.WriteFile(filepath.Join(e.root, "shop", "tax.go"), []byte("package shop\n\n// VatRate is the tax rate.\nconst VatRate = 20\n"), 0o644)
	var started map[string]any
	if err := e.call("workspace/executeCommand", map[string]any{"command": "askls.reindex"}, &started); err != nil || started["started"] != true {
		t.Fatalf("reindex: %v %v", started, err)
	}
	e.waitIndexedN(2)
	if syms := e.symbols("VatRate"); len(syms) == 0 {
		t.Error("reindex did not pick up a new file")
	}
	e.shutdown()
}

// TestBadFoldersAreSkippedAndReportedOnce: a workspace folder that is
// gone, a file, or not a file: URI is reported once (window/showMessage)
// and skipped; the other folder keeps working. Before, one such folder
// made every askls/ask fail and workspace/symbol return [] for all.
func TestBadFoldersAreSkippedAndReportedOnce(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	gone := filepath.Join(t.TempDir(), "gone")
	file := filepath.Join(e.root, "shop", "price.go")
	added := []any{
		map[string]any{"uri": workspace.FileURI(gone), "name": "gone"},
		map[string]any{"uri": workspace.FileURI(file), "name": "a file"},
		map[string]any{"uri": "https://example.com/repo", "name": "web"},
	}
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": added, "removed": []any{}}})
	e.waitIndexedN(2)
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": added, "removed": []any{}}})
	e.waitIndexedN(3)
	msgs := e.received("window/showMessage")
	joined := ""
	for _, m := range msgs {
		joined += string(m) + "\n"
	}
	for _, want := range []string{gone + ": it does not exist", "price.go: it is a file, not a folder", "https://example.com/repo: only file: URIs"} {
		if strings.Count(joined, want) != 1 {
			t.Errorf("want one message saying %q; got:\n%s", want, joined)
		}
	}
	if syms := e.symbols("Discount"); len(syms) == 0 {
		t.Errorf("workspace/symbol is empty for the good folder")
	}
	res, err := e.ask(map[string]any{"question": "how is a Discount applied to a Price?"})
	if err != nil || len(res.Citations) == 0 {
		t.Errorf("askls/ask with bad folders beside a good one: %v %+v", err, res)
	}
	e.shutdown()
}

// TestHomeFolderIsAnsweredFromOpenBuffers: a workspace folder that is the
// user's home folder is not walked; the client is told why, and questions
// are answered from the open buffers.
func TestHomeFolderIsAnsweredFromOpenBuffers(t *testing.T) {
	root := writeFixture(t, "workspace.txtar")
	t.Setenv("HOME", root)
	e := startEditorAt(t, root, editorSetup{})
	e.waitFor("window/showMessage", func(m json.RawMessage) bool {
		return strings.Contains(string(m), "home folder") && strings.Contains(string(m), "open files")
	})
	e.waitIndexed()
	if syms := e.symbols("Discount"); len(syms) != 0 {
		t.Errorf("a closed file of the home folder was indexed: %+v", syms)
	}
	e.open("notes/plan.go", "package notes\n\n// ShippingWindow says when parcels leave the warehouse.\nfunc ShippingWindow() int { return 3 }\n")
	e.sync()
	res, err := e.ask(map[string]any{"question": "when do parcels leave the warehouse? ShippingWindow"})
	if err != nil || len(res.Citations) == 0 || !strings.HasSuffix(string(res.Citations[0].Location.URI), "notes/plan.go") {
		t.Errorf("not answered from the open buffer: %v %+v", err, res)
	}
	e.shutdown()
}
