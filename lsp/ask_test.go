package lsp

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/lsp/buffer"
	"github.com/askls/askls/workspace"
)

// purge is added to cache/cache.go in the editor buffer only (never
// saved), below a line with non-BMP characters.
const purgeFunc = "\n// 🎉🎉 Purge drops every zebrafrob entry. 🎉\nfunc (c *Cache) Purge() {\n\tc.items = map[string]entry{}\n}\n"

func (e *fakeEditor) ask(params map[string]any) (*askResult, error) {
	var res askResult
	err := e.call("askls/ask", params, &res)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// citationIn returns the first citation of res in file rel.
func (e *fakeEditor) citationIn(res *askResult, rel string) (wireCitation, bool) {
	for _, c := range res.Citations {
		if string(c.Location.URI) == e.uri(rel) {
			return c, true
		}
	}
	return wireCitation{}, false
}

func TestAskRetrievalSeesUnsavedBufferWithEmoji(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	orig := e.read("cache/cache.go")
	e.open("cache/cache.go", orig)
	lines := uint32(strings.Count(orig, "\n"))
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: lines}, End: protocol.Position{Line: lines}}, purgeFunc)

	res, err := e.ask(map[string]any{
		"question":           "zebrafrob Purge",
		"textDocument":       map[string]any{"uri": e.uri("cache/cache.go")},
		"position":           protocol.Position{Line: 3, Character: 2},
		"workDoneToken":      "ask-1",
		"partialResultToken": "ask-1-partial",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != agent.ModeRetrieval || res.ID == "" || res.Question != "zebrafrob Purge" {
		t.Errorf("result: mode %q id %q question %q", res.Mode, res.ID, res.Question)
	}
	c, ok := e.citationIn(res, "cache/cache.go")
	if !ok {
		t.Fatalf("no citation in cache/cache.go: %s", mustJSON(res.Citations))
	}
	// The Purge comment is on line `lines+1` (0-based) of the buffer.
	if c.Location.Range.Start.Line > lines+1 || c.Location.Range.End.Line < lines+2 {
		t.Errorf("citation range %v does not cover the unsaved Purge func at line %d", c.Location.Range, lines+1)
	}
	if c.Location.Range.End.Character == 0 && c.Location.Range.End.Line == c.Location.Range.Start.Line {
		t.Errorf("empty range %v", c.Location.Range)
	}
	// Work-done progress on the client's token: begin ... end.
	e.waitFor("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"ask-1"`) && strings.Contains(string(p), `"end"`)
	})
	if !strings.Contains(string(e.waitFor("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"ask-1"`) && strings.Contains(string(p), `"begin"`)
	})), "zebrafrob") {
		t.Error("progress begin does not name the question")
	}
	e.shutdown()
}

func TestCodeLensFollowsEditsAndGoesStale(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	orig := e.read("cache/cache.go")
	e.open("cache/cache.go", orig)
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(res, "cache/cache.go")
	if !ok {
		t.Fatalf("no citation in cache/cache.go: %s", mustJSON(res.Citations))
	}
	lens := e.lensFor(res.ID, c.N)
	if lens.Range.Start != c.Location.Range.Start {
		t.Errorf("lens at %v, citation at %v", lens.Range.Start, c.Location.Range.Start)
	}
	wantTitle := "[" + itoa(c.N) + "] How does the cache expire? — askls"
	if lens.Command.Title != wantTitle || lens.Command.Command != "askls.showAnswer" || len(lens.Command.Arguments) != 1 || lens.Command.Arguments[0] != res.ID {
		t.Errorf("lens command %+v, want title %q and askls.showAnswer [%s]", lens.Command, wantTitle, res.ID)
	}

	// An edit above the cited range (two lines with emoji) moves it down.
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "// 😀 one\n// 🎉 two\n")
	e.waitFor("workspace/codeLens/refresh", nil)
	moved := e.lensFor(res.ID, c.N)
	if moved.Range.Start.Line != lens.Range.Start.Line+2 || strings.Contains(moved.Command.Title, "stale") {
		t.Errorf("after an edit above: lens %v %q, want line %d, not stale", moved.Range, moved.Command.Title, lens.Range.Start.Line+2)
	}

	// An edit inside it makes it stale.
	in := moved.Range.Start.Line
	e.change("cache/cache.go", 3, protocol.Range{Start: protocol.Position{Line: in, Character: 0}, End: protocol.Position{Line: in, Character: 0}}, "X")
	stale := e.lensFor(res.ID, c.N)
	if !strings.Contains(stale.Command.Title, "stale") {
		t.Errorf("after an edit inside: title %q, want stale", stale.Command.Title)
	}
	var shown askResult
	if err := e.call("workspace/executeCommand", map[string]any{"command": "askls.showAnswer", "arguments": []any{res.ID}}, &shown); err != nil {
		t.Fatal(err)
	}
	sc, _ := e.citationIn(&shown, "cache/cache.go")
	if !sc.Stale || sc.Location.Range.Start.Line != in {
		t.Errorf("showAnswer citation %+v, want stale at line %d", sc, in)
	}
	e.shutdown()
}

func (e *fakeEditor) lensFor(id string, n int) protocol.CodeLens {
	e.t.Helper()
	var lenses []protocol.CodeLens
	if err := e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": e.uri("cache/cache.go")}}, &lenses); err != nil {
		e.t.Fatal(err)
	}
	for _, l := range lenses {
		if l.Command != nil && len(l.Command.Arguments) == 1 && l.Command.Arguments[0] == id && strings.HasPrefix(l.Command.Title, "["+itoa(n)+"]") {
			return l
		}
	}
	e.t.Fatalf("no lens for answer %s citation %d among %s", id, n, mustJSON(lenses))
	return protocol.CodeLens{}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestDiagnosticsFallbackWithoutCodeLens(t *testing.T) {
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true}}
	e := startEditor(t, editorSetup{caps: caps})
	e.waitIndexed()
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(res, "cache/cache.go")
	if !ok {
		t.Fatalf("no citation in cache/cache.go")
	}
	raw := e.waitFor("textDocument/publishDiagnostics", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "cache.go") && strings.Contains(string(p), "askls")
	})
	var pd protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(raw, &pd); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range pd.Diagnostics {
		if d.Source == "askls" && d.Severity == protocol.DiagnosticSeverityHint && d.Range == c.Location.Range &&
			strings.Contains(d.Message, "How does the cache expire?") {
			found = true
		}
	}
	if !found {
		t.Errorf("no Hint diagnostic on %v: %s", c.Location.Range, raw)
	}
	if got := e.received("workspace/codeLens/refresh"); len(got) > 0 {
		t.Errorf("codeLens/refresh sent to a client without refreshSupport")
	}
	// Turning diagnostics off clears them.
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"askls": map[string]any{"citationsAsDiagnostics": false}}})
	e.waitFor("textDocument/publishDiagnostics", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "cache.go") && strings.Contains(string(p), `"diagnostics":[]`)
	})
	e.shutdown()
}

func TestExecuteCommandAskShowsMarkdown(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	var res askResult
	err := e.call("workspace/executeCommand", map[string]any{
		"command":   "askls.ask",
		"arguments": []any{"How does the cache expire?", "cache/cache.go", "12", 3},
	}, &res)
	if err != nil {
		t.Fatal(err)
	}
	// askls.ask never opens the answer itself (see
	// TestAskCommandNeverOpensTheAnswer); askls.showAnswer does.
	if err := e.command(cmdShowAnswer, nil, nil); err != nil {
		t.Fatal(err)
	}
	raw := e.waitFor("window/showDocument", nil)
	var sd struct {
		URI       string `json:"uri"`
		TakeFocus bool   `json:"takeFocus"`
	}
	json.Unmarshal(raw, &sd)
	path, err := workspace.URIPath(sd.URI)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(&res, "cache/cache.go")
	if !ok {
		t.Fatal("no citation in cache/cache.go")
	}
	// Citation lines name the file relative to the workspace folder.
	want := "] cache/cache.go:" + itoa(int(c.Location.Range.Start.Line)+1) + ":1"
	if !strings.Contains(string(md), "# How does the cache expire?") || !strings.Contains(string(md), want) ||
		strings.Contains(string(md), e.root) {
		t.Errorf("markdown lacks the question or %q:\n%s", want, md)
	}
	e.shutdown()
}

func TestWorkspaceSymbolAndSearchSeeEditsAtOnce(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	var syms []protocol.SymbolInformation
	if err := e.call("workspace/symbol", map[string]any{"query": "Discount"}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) == 0 || syms[0].Name != "Discount" || syms[0].Location.URI != protocol.DocumentURI(e.uri("shop/price.go")) ||
		syms[0].Kind != protocol.SymbolKindFunction || syms[0].Location.Range.Start.Line != 6 {
		t.Errorf("workspace/symbol Discount = %s", mustJSON(syms))
	}
	// An edit, then at once a question about it: the ask's tools see it.
	orig := e.read("shop/price.go")
	e.open("shop/price.go", orig)
	e.change("shop/price.go", 2, protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}}, "// quuxquota 😀 limits baskets.\n")
	res, err := e.ask(map[string]any{"question": "quuxquota"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := e.citationIn(res, "shop/price.go")
	if !ok || c.Location.Range.Start.Line > 2 || c.Location.Range.End.Line < 2 {
		t.Errorf("the edit is not what the answer cites: %s", mustJSON(res.Citations))
	}
	e.shutdown()
}

// TestEditsApplyWhileAnAnswerIsWritten holds the model's stream open and
// checks that edits and other requests are handled meanwhile.
func TestEditsApplyWhileAnAnswerIsWritten(t *testing.T) {
	fo := modeltest.NewOllama(t,
		modeltest.Calls("search_code", `{"query":"cache expire"}`),
		replyWith(modeltest.Text("Entries expire "), modeltest.Chunk{Hold: true}, modeltest.Text("after the ttl [1].")),
		// A second question asked while the first is held.
		modeltest.Calls("search_code", `{"query":"quuxedited"}`),
		modeltest.Say("It was just typed [1]."),
	)
	e, s := captureServer(t, editorSetup{opts: Options{Agent: agent.Config{Host: fo.URL}}})
	e.waitIndexed()
	orig := e.read("cache/cache.go")
	e.open("cache/cache.go", orig)

	type out struct {
		res *askResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		r, err := e.ask(map[string]any{"question": "How does the cache expire?", "partialResultToken": "p1"})
		done <- out{r, err}
	}()
	<-fo.Started
	<-fo.Started // the second turn, now held
	e.waitFor("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"p1"`) && strings.Contains(string(p), "Entries expire")
	})

	// While the answer is held: an edit is applied, a request answered.
	e.change("cache/cache.go", 2, protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "// 😀 quuxedited during the answer\n")
	var syms []protocol.SymbolInformation
	if err := e.call("workspace/symbol", map[string]any{"query": "Cache"}, &syms); err != nil {
		t.Fatal(err)
	}
	if got := s.docText(t, e.uri("cache/cache.go")); !strings.HasPrefix(got, "// 😀 quuxedited during the answer\n") {
		t.Errorf("edit not applied while the answer was in flight")
	}
	// A question right after the edit, while the first answer is still
	// held, is answered and its search sees the edit.
	second, err := e.ask(map[string]any{"question": "What was just typed?"})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := e.citationIn(second, "cache/cache.go"); !ok || c.Location.Range.Start.Line != 0 {
		t.Errorf("second answer does not cite the edit at line 0: %s", mustJSON(second))
	}
	select {
	case o := <-done:
		t.Fatalf("ask finished while the model was held: %+v %v", o.res, o.err)
	default:
	}

	fo.Release()
	var o out
	select {
	case o = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ask did not finish after the stream was released")
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.res.Mode != agent.ModeModel || !strings.Contains(o.res.Answer, "Entries expire after the ttl") {
		t.Errorf("answer: %+v", o.res)
	}
	// The citation was resolved against the buffer as it is now (one line
	// added at the top), not as it was when the answer started.
	if c, ok := e.citationIn(o.res, "cache/cache.go"); ok {
		lens := e.lensFor(o.res.ID, c.N)
		if lens.Range.Start != c.Location.Range.Start {
			t.Errorf("lens %v and citation %v disagree", lens.Range, c.Location.Range)
		}
		content := []byte(s.docText(t, e.uri("cache/cache.go")))
		start, _ := buffer.OffsetOf(content, c.Location.Range.Start)
		if c.Stale || !strings.Contains(string(content[start:]), "expire") {
			t.Errorf("citation %v does not point at the cached code after the edit", c.Location.Range)
		}
	}
	e.shutdown()
}

// A question the index refuses (over 4,096 bytes) is the client's error,
// InvalidParams with the reason; a retrieval answer carries weak.
func TestAskOverLongQuestionIsInvalidParamsAndWeakIsSent(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	_, err := e.ask(map[string]any{"question": strings.Repeat("how does the cache expire ", 200)})
	var werr *jsonrpc2.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc2.InvalidParams || !strings.Contains(werr.Message, "4096") {
		t.Errorf("over-long question: %v (%T), want InvalidParams naming the 4096-byte limit", err, err)
	}
	var raw json.RawMessage
	if err := e.call("askls/ask", map[string]any{"question": "How does the cache expire?"}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"weak":`) {
		t.Errorf("the result has no weak field: %s", raw)
	}
	e.shutdown()
}
