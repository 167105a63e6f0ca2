package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/modeltest"
)

// lensesIn returns the code lenses of rel.
func (e *fakeEditor) lensesIn(rel string) []protocol.CodeLens {
	e.t.Helper()
	var lenses []protocol.CodeLens
	if err := e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": e.uri(rel)}}, &lenses); err != nil {
		e.t.Fatal(err)
	}
	return lenses
}

// lensAnswers counts the lenses of rel per answer id.
func (e *fakeEditor) lensAnswers(rel string) map[string]int {
	out := map[string]int{}
	for _, l := range e.lensesIn(rel) {
		if l.Command != nil && len(l.Command.Arguments) == 1 {
			id, _ := l.Command.Arguments[0].(string)
			out[id]++
		}
	}
	return out
}

// lastDiagnostics is the last publishDiagnostics for rel.
func (e *fakeEditor) lastDiagnostics(rel string) (protocol.PublishDiagnosticsParams, bool) {
	var last protocol.PublishDiagnosticsParams
	found := false
	for _, raw := range e.received("textDocument/publishDiagnostics") {
		var pd protocol.PublishDiagnosticsParams
		if json.Unmarshal(raw, &pd) == nil && string(pd.URI) == e.uri(rel) {
			last, found = pd, true
		}
	}
	return last, found
}

// waitDiagnostics waits until the last diagnostics of rel satisfy ok.
func (e *fakeEditor) waitDiagnostics(rel string, what string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if pd, found := e.lastDiagnostics(rel); found && ok(pd.Diagnostics) {
			return pd.Diagnostics
		}
		if time.Now().After(deadline) {
			pd, _ := e.lastDiagnostics(rel)
			e.t.Fatalf("diagnostics of %s: want %s, have %s", rel, what, mustJSON(pd.Diagnostics))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *fakeEditor) command(name string, args []any, result any) error {
	return e.call("workspace/executeCommand", map[string]any{"command": name, "arguments": args}, result)
}

func codes(ds []protocol.Diagnostic) map[string]int {
	out := map[string]int{}
	for _, d := range ds {
		if c, ok := d.Code.(string); ok {
			out[c]++
		}
	}
	return out
}

// TestCitationsAreBoundedAndCleared: by default only the newest answer
// shows its citations; keepCitations shows more; askls.clearCitations hides
// one answer's or all; the answers stay available to askls.showAnswer.
func TestCitationsAreBoundedAndCleared(t *testing.T) {
	e := startEditor(t, editorSetup{initOpts: map[string]any{"citationsAsDiagnostics": "always"}})
	e.waitIndexed()
	q1, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.citationIn(q1, "cache/cache.go"); !ok {
		t.Fatalf("q1 does not cite cache/cache.go: %s", mustJSON(q1.Citations))
	}
	if got := e.lensAnswers("cache/cache.go"); got[q1.ID] == 0 {
		t.Fatalf("no lens of the first answer: %v", got)
	}
	ds := e.waitDiagnostics("cache/cache.go", "hints of q1", func(ds []protocol.Diagnostic) bool { return codes(ds)["q1"] > 0 })
	for _, d := range ds {
		// A short, readable code and message: pickers show them in columns.
		if d.Source != "askls" || d.Severity != protocol.DiagnosticSeverityHint || !strings.HasPrefix(d.Message, "[") ||
			!strings.Contains(d.Message, "] How does the cache expire?") || strings.Contains(d.Message, q1.ID) {
			t.Errorf("hint %s", mustJSON(d))
		}
	}

	q2, err := e.ask(map[string]any{"question": "How is a discount applied to a price?"})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.lensAnswers("cache/cache.go"); got[q1.ID] != 0 {
		t.Errorf("the first answer's lenses remain after a second answer (keepCitations 1): %v", got)
	}
	e.waitDiagnostics("cache/cache.go", "no hints of q1", func(ds []protocol.Diagnostic) bool { return codes(ds)["q1"] == 0 })
	if got := e.lensAnswers("shop/price.go"); got[q2.ID] == 0 {
		t.Errorf("no lens of the second answer in shop/price.go: %v", got)
	}

	// keepCitations 2: both answers show.
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"askls": map[string]any{"keepCitations": 2}}})
	e.waitDiagnostics("cache/cache.go", "hints of q1 again", func(ds []protocol.Diagnostic) bool { return codes(ds)["q1"] > 0 })
	if got := e.lensAnswers("cache/cache.go"); got[q1.ID] == 0 {
		t.Errorf("keepCitations 2 does not show the first answer's lenses: %v", got)
	}

	// Clear one answer by label, then all.
	var cleared struct{ Cleared []string }
	if err := e.command("askls.clearCitations", []any{"q1"}, &cleared); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cleared.Cleared, ",") != "q1" {
		t.Errorf("cleared %v, want [q1]", cleared.Cleared)
	}
	if got := e.lensAnswers("cache/cache.go"); got[q1.ID] != 0 {
		t.Errorf("lenses of q1 after clearing it: %v", got)
	}
	if got := e.lensAnswers("shop/price.go"); got[q2.ID] == 0 {
		t.Errorf("clearing q1 removed q2's lenses: %v", got)
	}
	e.waitDiagnostics("cache/cache.go", "no hints of q1 after clearing it", func(ds []protocol.Diagnostic) bool { return codes(ds)["q1"] == 0 })
	if err := e.command("askls.clearCitations", nil, &cleared); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cleared.Cleared, ",") != "q2" {
		t.Errorf("cleared %v, want [q2]", cleared.Cleared)
	}
	for _, rel := range []string{"cache/cache.go", "shop/price.go"} {
		if got := e.lensesIn(rel); len(got) != 0 {
			t.Errorf("lenses in %s after clearing all: %s", rel, mustJSON(got))
		}
		e.waitDiagnostics(rel, "none", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	}
	err = e.command("askls.clearCitations", []any{"q99"}, nil)
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "q99") {
		t.Errorf("clearing an unknown answer: %v", err)
	}

	// The answers are still there: by label, by id, and the newest.
	shownBefore := len(e.received("window/showDocument"))
	var shown askResult
	if err := e.command("askls.showAnswer", []any{"q1", map[string]any{"show": false}}, &shown); err != nil {
		t.Fatal(err)
	}
	if shown.ID != q1.ID || len(shown.Citations) != len(q1.Citations) {
		t.Errorf("showAnswer q1: %s", mustJSON(shown))
	}
	if err := e.command("askls.showAnswer", nil, &shown); err != nil {
		t.Fatal(err)
	}
	if shown.ID != q2.ID {
		t.Errorf("showAnswer without an id gave %s, want the newest %s", shown.ID, q2.ID)
	}
	if got := len(e.received("window/showDocument")); got != shownBefore+1 {
		t.Errorf("showDocument sent %d times for one show:false and one plain showAnswer", got-shownBefore)
	}
	e.shutdown()
}

// TestAskCommandDoesNotTakeFocusFromTyping: askls.ask (what Helix runs)
// opens the answer only when the user has not edited since asking; else a
// notice says how to open it.
func TestAskCommandDoesNotTakeFocusFromTyping(t *testing.T) {
	fo := modeltest.NewOllama(t,
		modeltest.Calls("search_code", `{"query":"cache expire"}`),
		replyWith(modeltest.Text("Entries expire "), modeltest.Chunk{Hold: true}, modeltest.Text("after the ttl [1].")),
		modeltest.Calls("search_code", `{"query":"cache expire"}`),
		modeltest.Say("Entries expire after the ttl [1]."),
	)
	e := startEditor(t, editorSetup{opts: Options{Agent: agent.Config{Host: fo.URL}}})
	e.waitIndexed()
	orig := e.read("cache/cache.go")
	e.open("cache/cache.go", orig)

	done := make(chan error, 1)
	go func() {
		var res askResult
		done <- e.command("askls.ask", []any{"How does the cache expire?", "cache/cache.go", 5, 1}, &res)
	}()
	<-fo.Started
	<-fo.Started // the answer is being written, and held
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "// typed while waiting\n")
	e.sync()
	fo.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	e.waitFor("window/showMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "not opened because you were editing") && strings.Contains(string(p), "askls.showAnswer")
	})
	if got := e.received("window/showDocument"); len(got) != 0 {
		t.Errorf("the answer was opened while the user typed: %s", got)
	}

	// Asked and waited without editing: it opens, and a notice says so.
	var res askResult
	if err := e.command("askls.ask", []any{"How does the cache expire?"}, &res); err != nil {
		t.Fatal(err)
	}
	raw := e.waitFor("window/showDocument", nil)
	var sd struct {
		URI       string `json:"uri"`
		TakeFocus bool   `json:"takeFocus"`
	}
	json.Unmarshal(raw, &sd)
	if !strings.HasSuffix(sd.URI, ".md") || !sd.TakeFocus {
		t.Errorf("showDocument %s", raw)
	}
	e.waitFor("window/showMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "answer q2") && !strings.Contains(string(p), "not opened")
	})
	e.shutdown()
}

// TestAnswerFilesGoAwayWithTheServer: the markdown answers live in a folder
// of the server's own under the answer base, which is removed at exit;
// folders a killed server left are removed once its process is gone (or a
// day old).
func TestAnswerFilesGoAwayWithTheServer(t *testing.T) {
	base := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	stale := filepath.Join(base, fmt.Sprintf("answers-%d-1", os.Getppid()))
	fresh := filepath.Join(base, fmt.Sprintf("answers-%d-7", os.Getppid()))
	killed := filepath.Join(base, fmt.Sprintf("answers-%d-1", dead.ProcessState.Pid()))
	for _, d := range []string{stale, fresh, killed} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "answer-x.md"), []byte("old"), 0o600)
	}
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(stale, old, old)

	e := startEditor(t, editorSetup{opts: Options{AnswerDir: base}})
	e.waitIndexed()
	var res askResult
	if err := e.command("askls.ask", []any{"How does the cache expire?"}, &res); err != nil {
		t.Fatal(err)
	}
	var sd struct{ URI string }
	json.Unmarshal(e.waitFor("window/showDocument", nil), &sd)
	path, err := uriPath(sd.URI)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	if filepath.Dir(dir) != base || !strings.HasPrefix(filepath.Base(dir), "answers-") {
		t.Fatalf("answer written to %s, not to a server folder in %s", path, base)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("answer file: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a two-day-old folder of another server is still there (%v)", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("another server's current folder was removed: %v", err)
	}
	if _, err := os.Stat(killed); runtime.GOOS != "windows" && !os.IsNotExist(err) {
		t.Errorf("the folder of a server whose process is gone is still there (%v)", err)
	}
	e.shutdown()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after the server exited (%v)", dir, err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("another server's folder was removed at exit: %v", err)
	}
}

func TestDefaultAnswerBase(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	if got := defaultAnswerBase(); got != filepath.Join(run, "askls") {
		t.Errorf("with XDG_RUNTIME_DIR: %s", got)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	if got := defaultAnswerBase(); got != filepath.Join(cache, "askls") {
		t.Errorf("without XDG_RUNTIME_DIR: %s, want under %s", got, cache)
	}
}

// Neovim's Lua encodes an empty settings table as [].
func TestConfigMergeAcceptsAnEmptyList(t *testing.T) {
	c, err := DefaultConfig().merge(json.RawMessage(`[]`))
	if err != nil || c.KeepCitations != 1 {
		t.Errorf("merge([]) = %+v, %v", c, err)
	}
	if _, err := DefaultConfig().merge(json.RawMessage(`{"keepCitations": -1}`)); err == nil || !strings.Contains(err.Error(), "keepCitations") {
		t.Errorf("keepCitations -1: %v", err)
	}
}

// askls.status from a command menu (no arguments) also says the status in
// a message; a client that reads the result passes {"notify": false}.
func TestStatusCommandSaysItInAMessage(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	var st statusResult
	if err := e.command("askls.status", nil, &st); err != nil {
		t.Fatal(err)
	}
	e.waitFor("window/showMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "files indexed") })
	before := len(e.received("window/showMessage"))
	if err := e.command("askls.status", []any{map[string]any{"notify": false}}, &st); err != nil {
		t.Fatal(err)
	}
	e.sync()
	if got := len(e.received("window/showMessage")); got != before {
		t.Errorf("notify:false still sent a message (%d)", got-before)
	}
	if st.Index.Files == 0 {
		t.Errorf("status: %+v", st)
	}
	e.shutdown()
}

// The answer file says each notice once: notices the answer text already
// carries (the server's, and the agent's "no Ollama" line) are not repeated
// above it; the title is the question's first line.
func TestAnswerMarkdownSaysEachNoticeOnce(t *testing.T) {
	s := newServer(Options{Config: ptr(DefaultConfig()), Logger: testLogger(t), AnswerDir: t.TempDir()})
	res := &askResult{
		ID: "abc", Question: "Explain this code:\n\n```\nfunc f() {}\n```", Mode: "retrieval",
		Answer: "> askls: index still building.\n\nRanked evidence (no Ollama server at http://127.0.0.1:9) [1].",
		Notice: "no Ollama server at http://127.0.0.1:9; index still building; a third thing",
	}
	md := s.answerMarkdown(res)
	for _, n := range []string{"no Ollama server at http://127.0.0.1:9", "index still building", "a third thing"} {
		if c := strings.Count(md, n); c != 1 {
			t.Errorf("%q appears %d times:\n%s", n, c, md)
		}
	}
	if !strings.HasPrefix(md, "# Explain this code:\n\n```\nfunc f() {}\n```\n") {
		t.Errorf("title and question:\n%s", md)
	}
}
