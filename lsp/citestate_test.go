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
	"github.com/askls/askls/citations"
	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/lsp/answerdoc"
	"github.com/askls/askls/workspace"
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
	var last protocol.PublishDiagnosticsParams
	err := e.until("diagnostics of "+rel+": "+what, func() bool {
		pd, found := e.lastDiagnostics(rel)
		last = pd
		return found && ok(pd.Diagnostics)
	})
	if err != nil {
		e.t.Fatalf("%v; have %s", err, mustJSON(last.Diagnostics))
	}
	return last.Diagnostics
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

// TestAskCommandNeverOpensTheAnswer: askls.ask (what Helix runs) never
// opens the answer, whether the user typed while it was written or not
// (the server cannot see keys, modes or pickers); a message says it
// arrived and how to open it, and askls.showAnswer opens it with focus.
func TestAskCommandNeverOpensTheAnswer(t *testing.T) {
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
		return strings.Contains(string(p), "answer q1") && strings.Contains(string(p), "space i a (askls.showAnswer) opens it")
	})

	// Asked and waited without editing: still not opened.
	var res askResult
	if err := e.command("askls.ask", []any{"How does the cache expire?"}, &res); err != nil {
		t.Fatal(err)
	}
	e.waitFor("window/showMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "answer q2") && strings.Contains(string(p), "space i a (askls.showAnswer) opens it")
	})
	e.sync()
	if got := e.received("window/showDocument"); len(got) != 0 {
		t.Errorf("askls.ask opened the answer: %s", got)
	}

	// Asked to open: askls.showAnswer opens the newest, with focus.
	if err := e.command(cmdShowAnswer, nil, nil); err != nil {
		t.Fatal(err)
	}
	raw := e.waitFor("window/showDocument", nil)
	var sd struct {
		URI       string `json:"uri"`
		TakeFocus bool   `json:"takeFocus"`
	}
	json.Unmarshal(raw, &sd)
	if !strings.HasSuffix(sd.URI, "answer-"+res.ID+".md") || !sd.TakeFocus {
		t.Errorf("showDocument %s, want answer-%s.md with focus", raw, res.ID)
	}
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
	if err := e.command(cmdShowAnswer, nil, nil); err != nil {
		t.Fatal(err)
	}
	var sd struct{ URI string }
	json.Unmarshal(e.waitFor("window/showDocument", nil), &sd)
	path, err := workspace.URIPath(sd.URI)
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
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	if got := answerdoc.DefaultBase(); got != filepath.Join(cache, "askls") {
		t.Errorf("default answer folder: %s, want under %s", got, cache)
	}
}

// Neovim's Lua encodes an empty settings table as [].
func TestConfigMergeAcceptsAnEmptyList(t *testing.T) {
	c, err := DefaultConfig().Merge(json.RawMessage(`[]`))
	if err != nil || c.KeepCitations != 1 {
		t.Errorf("merge([]) = %+v, %v", c, err)
	}
	if _, err := DefaultConfig().Merge(json.RawMessage(`{"keepCitations": -1}`)); err == nil || !strings.Contains(err.Error(), "keepCitations") {
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

// locate runs askls.locate for a citation (with answer and n for a kept
// answer's).
func (e *fakeEditor) locate(c wireCitation, answer string) locateResult {
	e.t.Helper()
	arg := map[string]any{"location": c.Location, "hash": c.Hash}
	if answer != "" {
		arg["answer"], arg["n"] = answer, c.N
	}
	var res locateResult
	if err := e.command(cmdLocate, []any{arg}, &res); err != nil {
		e.t.Fatalf("%s: %v", cmdLocate, err)
	}
	return res
}

// lensOf is the lens of answer id on cited range r's line, if any.
func (e *fakeEditor) lensTitles(rel string) []string {
	var out []string
	for _, l := range e.lensesIn(rel) {
		out = append(out, fmt.Sprintf("%d:%s", l.Range.Start.Line, l.Command.Title))
	}
	return out
}

// TestLocateFollowsMovedCode: a citation of a kept answer and the same
// citation without its answer (what a panel or a reopened thread holds)
// both land on the cited code after lines are inserted above it; an edit
// inside the cited lines makes them stale, and undoing it makes them
// fresh again; a deleted file is stale.
func TestLocateFollowsMovedCode(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(res, "cache/cache.go")
	if !ok {
		t.Fatalf("no citation of cache/cache.go: %s", mustJSON(res.Citations))
	}
	orig := e.read("cache/cache.go")
	if len(c.Hash) != 64 || c.Stale {
		t.Fatalf("citation %s: want a 64-digit hash, not stale", mustJSON(c))
	}
	// The hash is the cited lines' (each ending in "\n").
	if want := citations.SpanHash([]byte(orig), int(c.Location.Range.Start.Line)+1, int(c.Location.Range.End.Line)+1); c.Hash != want {
		t.Errorf("hash %s, want %s (the cited lines' blake3)", c.Hash, want)
	}
	old := c.Location.Range.Start.Line

	// Five lines above the cited code, unsaved.
	e.open("cache/cache.go", orig)
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "// one\n// two\n// three\n// four\n// five\n")
	e.sync()
	for _, kept := range []string{"", "q1"} {
		got := e.locate(c, kept)
		if got.Stale || got.Location.Range.Start.Line != old+5 || got.Location.URI != c.Location.URI {
			t.Errorf("locate (answer %q) after 5 lines above: %s, want line %d, not stale", kept, mustJSON(got), old+5)
		}
	}

	// An edit inside the cited lines: stale, by the anchor and by the hash.
	cited := protocol.Position{Line: old + 5, Character: 0}
	e.change("cache/cache.go", 3, protocol.Range{Start: cited, End: cited}, "X")
	e.sync()
	for _, kept := range []string{"", "q1"} {
		if got := e.locate(c, kept); !got.Stale {
			t.Errorf("locate (answer %q) after an edit inside the cited lines: %s, want stale", kept, mustJSON(got))
		}
	}
	if titles := strings.Join(e.lensTitles("cache/cache.go"), "\n"); !strings.Contains(titles, "stale") {
		t.Errorf("the lens does not say stale after an edit inside: %s", titles)
	}
	// Undone: the same lines again, not stale (the lens neither).
	e.change("cache/cache.go", 4, protocol.Range{Start: cited, End: protocol.Position{Line: old + 5, Character: 1}}, "")
	e.sync()
	for _, kept := range []string{"", "q1"} {
		if got := e.locate(c, kept); got.Stale || got.Location.Range.Start.Line != old+5 {
			t.Errorf("locate (answer %q) after the edit was undone: %s, want line %d, not stale", kept, mustJSON(got), old+5)
		}
	}
	if titles := strings.Join(e.lensTitles("cache/cache.go"), "\n"); strings.Contains(titles, "stale") {
		t.Errorf("the lens still says stale after the edit was undone: %s", titles)
	}
	var shown askResult
	if err := e.command(cmdShowAnswer, []any{"q1", map[string]any{"show": false}}, &shown); err != nil {
		t.Fatal(err)
	}
	if sc, _ := e.citationIn(&shown, "cache/cache.go"); sc.Stale || sc.Location.Range.Start.Line != old+5 || sc.Hash != c.Hash {
		t.Errorf("showAnswer's citation: %s", mustJSON(sc))
	}

	// A cut and paste of the cited lines to the end of the file: the kept
	// answer's citation goes with them.
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": e.uri("cache/cache.go")}})
	lines := strings.SplitAfter(orig, "\n")
	s, en := int(old), int(c.Location.Range.End.Line)
	block := strings.Join(lines[s:en+1], "")
	moved := strings.Join(lines[:s], "") + strings.Join(lines[en+1:], "") + "\n" + block
	e.open("cache/cache.go", moved)
	e.sync()
	want := uint32(strings.Count(strings.Join(lines[:s], "")+strings.Join(lines[en+1:], "")+"\n", "\n"))
	for _, kept := range []string{"", "q1"} {
		if got := e.locate(c, kept); got.Stale || got.Location.Range.Start.Line != want {
			t.Errorf("locate (answer %q) after a cut and paste: %s, want line %d, not stale", kept, mustJSON(got), want)
		}
	}

	// Changed for good: stale, at the old lines.
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": e.uri("cache/cache.go")}})
	e.open("cache/cache.go", strings.Replace(orig, block, strings.ToUpper(block), 1))
	e.sync()
	if got := e.locate(c, ""); !got.Stale || got.Location.Range.Start.Line != old {
		t.Errorf("locate after the cited lines changed: %s, want stale at line %d", mustJSON(got), old)
	}

	// Bad input: a clear error.
	err = e.command(cmdLocate, []any{map[string]any{"location": c.Location}}, nil)
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "hash") {
		t.Errorf("locate without a hash: %v", err)
	}
	outside := c
	outside.Location.URI = protocol.DocumentURI(workspace.FileURI(filepath.Join(t.TempDir(), "x.go")))
	if err := e.command(cmdLocate, []any{map[string]any{"location": outside.Location, "hash": c.Hash}}, nil); rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "outside") {
		t.Errorf("locate outside the workspace: %v", err)
	}
	e.shutdown()
}

// TestReopenedThreadFollowsMovedCode is the case of a thread asked over
// unsaved edits that were then thrown away: reopened by a new server, its
// citation lands where the code is on disk (5 lines up) and is not stale;
// a change to the cited lines on disk makes it stale.
func TestReopenedThreadFollowsMovedCode(t *testing.T) {
	root := threadWorkspace(t)
	cache := t.TempDir()
	e := startEditorAt(t, root, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()
	orig := e.read("cart/discount.go")
	e.open("cart/discount.go", strings.Replace(orig, "// ApplyDiscount lowers", "const (\n\tx = 1\n\ty = 2\n)\n\n// ApplyDiscount lowers", 1))
	e.sync()
	r1, err := e.ask(map[string]any{"question": "what does `ApplyDiscount` do?", "thread": "new"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(r1, "cart/discount.go")
	if !ok || c.Hash == "" {
		t.Fatalf("no citation of cart/discount.go with a hash: %s", mustJSON(r1.Citations))
	}
	asked := c.Location.Range.Start.Line
	e.shutdown() // the edits are never saved

	openThread := func(e *fakeEditor) wireCitation {
		t.Helper()
		raw, err := e.run(cmdOpenThread, r1.Thread)
		if err != nil {
			t.Fatal(err)
		}
		var th wireThread
		if err := json.Unmarshal(raw, &th); err != nil || len(th.Turns) != 1 {
			t.Fatalf("openThread: %v %s", err, raw)
		}
		for _, tc := range th.Turns[0].Citations {
			if tc.N == c.N {
				return tc
			}
		}
		t.Fatalf("openThread lost citation [%d]: %s", c.N, raw)
		return wireCitation{}
	}

	e = startEditorAt(t, root, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()
	got := openThread(e)
	if got.Stale || got.Location.Range.Start.Line != asked-5 || got.Hash != c.Hash {
		t.Errorf("the reopened thread's citation: %s, want line %d (5 up), not stale", mustJSON(got), asked-5)
	}
	if l := e.locate(c, ""); l.Stale || l.Location.Range.Start.Line != asked-5 {
		t.Errorf("locate of the citation as first given: %s, want line %d", mustJSON(l), asked-5)
	}
	e.shutdown()

	// The cited code changed on disk: stale.
	changed := strings.Replace(orig, "return total * (100 - percent) / 100", "return total - total*percent/100", 1)
	if err := os.WriteFile(filepath.Join(root, "cart/discount.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	e = startEditorAt(t, root, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()
	if got := openThread(e); !got.Stale {
		t.Errorf("the citation of changed code: %s, want stale", mustJSON(got))
	}
	if l := e.locate(c, ""); !l.Stale {
		t.Errorf("locate of changed code: %s, want stale", mustJSON(l))
	}
	e.shutdown()
}

// The askls.locate examples of docs/protocol.md are the server's types.
func TestProtocolDocLocate(t *testing.T) {
	doc := readProtocolDoc(t)
	args := checkExample[[]locateArgs](t, doc, "askls.locate arguments")
	if len(args) != 1 || args[0].Hash == "" || args[0].Answer == "" || args[0].N == 0 {
		t.Errorf("the askls.locate arguments example should show every field: %+v", args)
	}
	checkExample[locateResult](t, doc, "askls.locate result")
}

// askls.ask with no model reachable: the arrival message says so, with
// what to do, as a warning (Helix shows nothing else of it).
func TestAskCommandSaysTheModelIsUnreachable(t *testing.T) {
	e := startEditor(t, editorSetup{opts: Options{Agent: agent.Config{Host: "http://127.0.0.1:9"}}})
	e.waitIndexed()
	if err := e.command("askls.ask", []any{"How does the cache expire?"}, nil); err != nil {
		t.Fatal(err)
	}
	raw := e.waitFor("window/showMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "answer q1") })
	var m struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &m)
	if m.Type != 2 || !strings.Contains(m.Message, "retrieval mode: no Ollama server at http://127.0.0.1:9") || !strings.Contains(m.Message, "ollama serve") {
		t.Errorf("the arrival message: %s", raw)
	}
	e.shutdown()
}

// A refused root (the home folder): askls.ask's arrival message repeats
// what the index said about it, with what to do, as a warning.
func TestAskCommandSaysTheRootIsRefused(t *testing.T) {
	root := writeFixture(t, "workspace.txtar")
	t.Setenv("HOME", root)
	e := startEditorAt(t, root, editorSetup{})
	e.waitIndexed()
	e.open("cache/cache.go", e.read("cache/cache.go"))
	if err := e.command("askls.ask", []any{"How does the cache expire?", "cache/cache.go", 1, 1}, nil); err != nil {
		t.Fatal(err)
	}
	raw := e.waitFor("window/showMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "answer q1") })
	var m struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &m)
	if m.Type != 2 || !strings.Contains(m.Message, "askls does not index "+root) || !strings.Contains(m.Message, "open a project folder instead") {
		t.Errorf("the arrival message: %s", raw)
	}
	e.shutdown()
}
