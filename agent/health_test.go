package agent

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askls/askls/agent/model"
)

func TestHealth(t *testing.T) {
	f := newFakeOllama(t)
	h := testAgent(f, Config{}).Health(context.Background())
	if !h.Reachable || h.Version != "0.17.4" || !h.ModelPresent || !h.Tools || h.ContextLength != 40960 || len(h.Problems) != 0 {
		t.Errorf("healthy: %+v", h)
	}
	h = testAgent(f, Config{Model: "qwen2.5-coder:7b"}).Health(context.Background())
	if h.ModelPresent || len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "ollama pull qwen2.5-coder:7b") {
		t.Errorf("missing model: %+v", h)
	}
	h = testAgent(f, Config{Model: "tiny"}).Health(context.Background())
	if !h.ModelPresent || h.Tools || len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "cannot call tools") {
		t.Errorf("no tools: %+v", h)
	}
	f.Version = "0.2.8"
	h = testAgent(f, Config{}).Health(context.Background())
	if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "older than 0.3") {
		t.Errorf("old server: %+v", h)
	}
	f.Version = "0.17.4"
	f.CtxLen = 8192
	h = testAgent(f, Config{}).Health(context.Background())
	if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "--num-ctx 8192") {
		t.Errorf("short context: %+v", h)
	}
	h = testAgent(nil, Config{Host: "127.0.0.1:1"}).Health(context.Background())
	if h.Reachable || len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "ollama serve") {
		t.Errorf("unreachable: %+v", h)
	}
}

// TestHealthNotJSON: a server that answers 200 with something that is not
// the API's JSON (a web page, another shape, a cut body) is named as not
// the API, for either provider, rather than as unreachable.
func TestHealthNotJSON(t *testing.T) {
	for _, body := range []string{"<html>hello</html>", `["a list"]`, `{"version": `} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, body)
		}))
		h := New(Config{Host: srv.URL, NumCtx: DefaultNumCtx}).Health(context.Background())
		if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "is not Ollama") {
			t.Errorf("ollama, body %q: %+v", body, h.Problems)
		}
		h = New(Config{Provider: model.ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "m"}).Health(context.Background())
		if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "is not an OpenAI-compatible API") {
			t.Errorf("openai, body %q: %+v", body, h.Problems)
		}
		srv.Close()
	}
}

func TestHostFromEnvironment(t *testing.T) {
	if got := New(Config{Env: Env{OllamaHost: "10.1.2.3:5"}}).Config().Host; got != "http://10.1.2.3:5" {
		t.Errorf("from OLLAMA_HOST: %s", got)
	}
	if got := New(Config{Host: "10.9.9.9", Env: Env{OllamaHost: "10.1.2.3:5"}}).Config().Host; got != "http://10.9.9.9:11434" {
		t.Errorf("--ollama-host over OLLAMA_HOST: %s", got)
	}
}
