package lsp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/modeltest"
)

// TestAskThroughOpenAIProviderSettings: the editor's settings choose an
// OpenAI-compatible server (provider, baseUrl, apiKey, model), and
// askls/ask answers through it with citations that are Locations.
func TestAskThroughOpenAIProviderSettings(t *testing.T) {
	f := modeltest.NewOpenAI(t,
		modeltest.Calls("search_code", `{"query":"cache expire"}`),
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("Entries expire after the ttl [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	f.Key = "sk-editor-4242"
	// The server starts configured for Ollama (as `askls serve` would);
	// the editor's settings switch it.
	e, _ := captureServer(t, editorSetup{opts: Options{Agent: agent.Config{Host: "http://127.0.0.1:1"}}, initOpts: map[string]any{
		"provider": "openai", "baseUrl": f.URL, "apiKey": "sk-editor-4242", "model": "qwen3:4b",
	}})
	e.waitIndexed()
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "model" || !strings.HasPrefix(res.Answer, "Entries expire after the ttl [1].") || len(res.Citations) != 1 {
		t.Fatalf("answer: %s", mustJSON(res))
	}
	if !strings.HasSuffix(string(res.Citations[0].Location.URI), ".go") {
		t.Errorf("citation location %+v", res.Citations[0].Location)
	}
	if h := f.Requests()[0].Header["Authorization"]; h != "Bearer sk-editor-4242" {
		t.Errorf("authorization %q", h)
	}
	if strings.Contains(mustJSON(res), "sk-editor") {
		t.Error("the key is in the result")
	}
}

// TestCredentialsNeverReachTheEditor: an Ollama host with a password in
// the editor's settings and an OpenAI-compatible server that fails with
// the API key in its error body: neither credential is in an answer, a
// notice, a message to the editor or a log line (stderr and
// window/logMessage). Before, the host's password was in the notice,
// the answer and the "configuration changed" log line, and the key in
// the notice and the answer.
func TestCredentialsNeverReachTheEditor(t *testing.T) {
	const key = "sk-editor-SECRET0123456789"
	fail := func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Status: 500, Error: "upstream failed for key Bearer " + key}
	}
	f := modeltest.NewOpenAI(t, fail, fail, fail)
	f.Key = key
	// At logLevel debug every log line goes to the editor (window/logMessage).
	e := startEditor(t, editorSetup{opts: Options{Agent: agent.Config{Provider: agent.ProviderOllama}}, initOpts: map[string]any{
		"ollamaHost": "http://user:PASSlsp9@127.0.0.1:1", "logLevel": "debug",
	}})
	e.waitIndexed()
	var out strings.Builder
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	out.WriteString(mustJSON(res))
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"askls": map[string]any{
		"provider": "openai", "baseUrl": f.URL, "apiKey": key, "model": "qwen3:4b", "ollamaHost": "http://user:PASSlsp9@127.0.0.1:1",
	}}})
	e.sync()
	res, err = e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	out.WriteString(mustJSON(res))
	var st any
	if err := e.command("askls.status", []any{map[string]any{"notify": false}}, &st); err != nil {
		t.Fatal(err)
	}
	out.WriteString(mustJSON(st))
	e.shutdown()
	for _, m := range e.client.Messages() {
		out.WriteString(m.Method + " " + string(m.Params) + string(m.Result) + "\n")
	}
	if !strings.Contains(out.String(), "HTTP 500") || !strings.Contains(out.String(), "127.0.0.1:1") {
		t.Errorf("the failing server is not reported:\n%s", out.String())
	}
	for _, s := range []string{"PASSlsp9", "SECRET0123456789"} {
		if strings.Contains(out.String(), s) {
			t.Errorf("%q reaches the editor or the log:\n%s", s, out.String())
		}
	}
}
