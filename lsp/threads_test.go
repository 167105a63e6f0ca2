package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/askls/askls/thread"
	"github.com/askls/askls/workspace"
)

// threadWorkspace is a small module where one function has a caller.
func threadWorkspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/cart\n\ngo 1.22\n",
		"cart/discount.go": "package cart\n\n// ApplyDiscount lowers the total by percent.\nfunc ApplyDiscount(total, percent int) int {\n\treturn total * (100 - percent) / 100\n}\n",
		"cart/checkout.go": "package cart\n\n// Checkout totals the cart after the discount.\nfunc Checkout(items []int, percent int) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it\n\t}\n\treturn ApplyDiscount(sum, percent)\n}\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func (e *fakeEditor) run(name string, args ...any) (json.RawMessage, error) {
	var out json.RawMessage
	err := e.command(name, args, &out)
	return out, err
}

func (e *fakeEditor) threads() []thread.Summary {
	e.t.Helper()
	raw, err := e.run(cmdThreads)
	if err != nil {
		e.t.Fatalf("%s: %v", cmdThreads, err)
	}
	var list []thread.Summary
	if err := json.Unmarshal(raw, &list); err != nil {
		e.t.Fatalf("%s: %v: %s", cmdThreads, err, raw)
	}
	return list
}

// A conversation through the protocol: an old client's question stands
// alone; "new" starts a thread, its id continues it, across a restart of
// the server; askls.openThread shows the turns with citations as they are
// now (stale after an edit); askls.deleteThread removes it.
func TestThreadsThroughTheProtocol(t *testing.T) {
	root := threadWorkspace(t)
	cache := t.TempDir()
	e := startEditorAt(t, root, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()

	old, err := e.ask(map[string]any{"question": "what does `ApplyDiscount` do?"})
	if err != nil {
		t.Fatal(err)
	}
	if old.Thread != "" || len(e.threads()) != 0 {
		t.Fatalf("a question without a thread made one: %q, %v", old.Thread, e.threads())
	}

	r1, err := e.ask(map[string]any{"question": "what does `ApplyDiscount` do?", "thread": "new"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r1.Thread) != 16 {
		t.Fatalf("thread %q", r1.Thread)
	}
	e.shutdown()

	// A new server on the same workspace and cache: the thread continues.
	e = startEditorAt(t, root, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()
	list := e.threads()
	if len(list) != 1 || list[0].ID != r1.Thread || list[0].Turns != 1 {
		t.Fatalf("after a restart: %+v", list)
	}
	r2, err := e.ask(map[string]any{"question": "who calls that?", "thread": r1.Thread})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Thread != r1.Thread || !strings.Contains(r2.Answer, "Following up on `ApplyDiscount`") {
		t.Fatalf("follow-up in %q:\n%s", r2.Thread, r2.Answer)
	}
	if _, ok := e.citationIn(r2, "cart/checkout.go"); !ok {
		t.Errorf("the caller in cart/checkout.go is not cited: %s", mustJSON(r2.Citations))
	}

	// An edit in the buffer above the cited function: turn 1's citation
	// of it follows the function two lines down and is not stale.
	orig := e.read("cart/discount.go")
	e.open("cart/discount.go", strings.Replace(orig, "// ApplyDiscount lowers", "// Discounts.\n\n// ApplyDiscount lowers", 1))
	raw, err := e.run(cmdOpenThread, r1.Thread)
	if err != nil {
		t.Fatal(err)
	}
	var th wireThread
	if err := json.Unmarshal(raw, &th); err != nil {
		t.Fatal(err)
	}
	if th.ID != r1.Thread || len(th.Turns) != 2 || th.Turns[1].Question != "who calls that?" {
		t.Fatalf("openThread: %s", raw)
	}
	first := th.Turns[0].Citations[0]
	if string(first.Location.URI) != e.uri("cart/discount.go") || first.Stale ||
		first.Location.Range.Start.Line != r1.Citations[0].Location.Range.Start.Line+2 {
		t.Errorf("turn 1's citation after the edit: %s (was %s)", mustJSON(first), mustJSON(r1.Citations[0]))
	}

	// "last" continues the most recent thread.
	r3, err := e.ask(map[string]any{"question": "and Checkout?", "thread": "last"})
	if err != nil || r3.Thread != r1.Thread {
		t.Fatalf("last: %v %q", err, r3.Thread)
	}

	if _, err := e.run(cmdDeleteThread, r1.Thread); err != nil {
		t.Fatal(err)
	}
	if l := e.threads(); len(l) != 0 {
		t.Errorf("after delete: %+v", l)
	}
	_, err = e.ask(map[string]any{"question": "why?", "thread": r1.Thread})
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "no such thread") {
		t.Errorf("a deleted thread: %v", err)
	}
	if _, err := e.run(cmdDeleteThread, "nope"); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("deleting a bad id: %v", err)
	}
}

// askls.ask (executeCommand) takes the thread as its fifth argument.
func TestExecuteCommandAskInThread(t *testing.T) {
	root := threadWorkspace(t)
	e := startEditorAt(t, root, editorSetup{})
	e.waitIndexed()
	raw, err := e.run(cmdAsk, "what does `ApplyDiscount` do?", nil, nil, nil, "last")
	if err != nil {
		t.Fatal(err)
	}
	var r1 askResult
	json.Unmarshal(raw, &r1)
	raw, err = e.run(cmdAsk, "who calls that?", nil, nil, nil, "last")
	if err != nil {
		t.Fatal(err)
	}
	var r2 askResult
	json.Unmarshal(raw, &r2)
	if r1.Thread == "" || r2.Thread != r1.Thread || !strings.Contains(r2.Answer, "Following up on") {
		t.Fatalf("threads %q %q:\n%s", r1.Thread, r2.Thread, r2.Answer)
	}
	// The answer document of the follow-up (askls.showAnswer opens it)
	// shows the whole thread: the newest turn first, then turn 1 with its
	// citation lines.
	if err := e.command(cmdShowAnswer, nil, nil); err != nil {
		t.Fatal(err)
	}
	e.waitFor("window/showDocument", nil)
	var md []byte
	for _, raw := range e.received("window/showDocument") {
		var sd struct {
			URI string `json:"uri"`
		}
		json.Unmarshal(raw, &sd)
		if path, err := workspace.URIPath(sd.URI); err == nil && strings.Contains(path, r2.ID) {
			md, _ = os.ReadFile(path)
		}
	}
	text := string(md)
	newest := strings.Index(text, "# who calls that?")
	earlier := strings.Index(text, "### what does `ApplyDiscount` do?")
	if newest != 0 || earlier < 0 || !strings.Contains(text[earlier:], "] cart/discount.go:") {
		t.Errorf("the follow-up's answer document does not show the thread:\n%s", text)
	}
}

// shownFile is the file of the newest window/showDocument.
func (e *fakeEditor) shownFile(before int) string {
	e.t.Helper()
	all := e.waitForN("window/showDocument", nil, before+1)
	var sd struct {
		URI       string `json:"uri"`
		TakeFocus bool   `json:"takeFocus"`
	}
	json.Unmarshal(all[len(all)-1], &sd)
	path, err := workspace.URIPath(sd.URI)
	if err != nil || !sd.TakeFocus {
		e.t.Fatalf("showDocument %s: %v", all[len(all)-1], err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// A client that shows no command results (Helix) gets the thread list and
// a thread as documents with {"show": true}; without it nothing opens.
func TestThreadsAsDocuments(t *testing.T) {
	root := threadWorkspace(t)
	e := startEditorAt(t, root, editorSetup{})
	e.waitIndexed()
	r1, err := e.ask(map[string]any{"question": "what does `ApplyDiscount` do?", "thread": "new"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.run(cmdThreads); err != nil {
		t.Fatal(err)
	}
	e.sync()
	if n := len(e.received("window/showDocument")); n != 0 {
		t.Fatalf("askls.threads without show opened %d documents", n)
	}
	if _, err := e.run(cmdThreads, map[string]any{"show": true}); err != nil {
		t.Fatal(err)
	}
	list := e.shownFile(0)
	if !strings.Contains(list, "\n"+r1.Thread+"  what does `ApplyDiscount` do? (1 turns") || !strings.Contains(list, "space i o") {
		t.Errorf("the thread list document:\n%s", list)
	}
	raw, err := e.run(cmdOpenThread, r1.Thread, map[string]any{"show": true})
	if err != nil {
		t.Fatal(err)
	}
	var th wireThread
	json.Unmarshal(raw, &th)
	doc := e.shownFile(1)
	if th.ID != r1.Thread || !strings.Contains(doc, "## what does `ApplyDiscount` do?") || !strings.Contains(doc, "] cart/discount.go:") || !strings.Contains(doc, `"`+r1.Thread+`"`) {
		t.Errorf("the thread document:\n%s", doc)
	}
	if _, err := e.run(cmdThreads, "yes"); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("askls.threads with a bad argument: %v", err)
	}
}
