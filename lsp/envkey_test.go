package lsp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/internal/modeltest"
)

// TestEnvironmentKeyStaysWithOpenAI: the server starts for an
// OpenAI-compatible server with the environment's key (agent.Env, as
// `askls serve` reads OPENAI_API_KEY); the editor's settings switch it to
// Ollama. The answer comes from Ollama, which gets no Authorization
// header and never the key.
func TestEnvironmentKeyStaysWithOpenAI(t *testing.T) {
	const key = "sk-env-STAYSWITHOPENAI42"
	o := modeltest.NewOllama(t,
		modeltest.Calls("search_code", `{"query":"cache expire"}`),
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("Entries expire after the ttl [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	start := agent.Config{Provider: agent.ProviderOpenAI, BaseURL: "http://127.0.0.1:1/v1", Env: agent.Env{APIKey: key}}
	e, _ := captureServer(t, editorSetup{opts: Options{Agent: start}, initOpts: map[string]any{
		"provider": "ollama", "ollamaHost": o.URL, "model": "qwen3:4b",
	}})
	e.waitIndexed()
	res, err := e.ask(map[string]any{"question": "How does the cache expire?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "model" || len(res.Citations) != 1 {
		t.Fatalf("answer: %s", mustJSON(res))
	}
	reqs := o.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached Ollama")
	}
	for i, r := range reqs {
		if h := r.Header["Authorization"]; h != "" {
			t.Errorf("request %d to Ollama carries Authorization %q", i, h)
		}
		if strings.Contains(string(r.Raw), key) {
			t.Errorf("request %d to Ollama holds the key", i)
		}
	}
}
