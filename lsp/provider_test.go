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
