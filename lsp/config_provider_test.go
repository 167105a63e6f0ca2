package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askls/askls/agent"
)

func TestProviderSettings(t *testing.T) {
	c, err := DefaultConfig().Merge(json.RawMessage(`{"askls": {"provider": "openai", "baseUrl": "http://gpu:8000/v1", "apiKey": "sk-team-777", "model": "qwen2.5-coder"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "openai" || c.BaseURL != "http://gpu:8000/v1" || c.APIKey != "sk-team-777" || c.Model != "qwen2.5-coder" {
		t.Errorf("merged %+v", c)
	}
	s := &server{opts: Options{Agent: agent.Config{Host: "http://127.0.0.1:11434"}}}
	a := s.agentConfig(c)
	if a.Provider != "openai" || a.BaseURL != "http://gpu:8000/v1" || a.APIKey != "sk-team-777" {
		t.Errorf("agent config %+v", a)
	}
	// askls.status shows the configuration: never the key.
	b, _ := json.Marshal(statusResult{Config: c})
	if strings.Contains(string(b), "sk-team-777") || !strings.Contains(string(b), `"baseUrl":"http://gpu:8000/v1"`) {
		t.Errorf("status: %s", b)
	}
	if _, err := c.Merge(json.RawMessage(`{"provider": "anthropic"}`)); err == nil || !strings.Contains(err.Error(), "want ollama or openai") {
		t.Errorf("bad provider: %v", err)
	}
}
