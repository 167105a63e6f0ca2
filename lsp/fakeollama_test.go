package lsp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// fakeOllama speaks enough of Ollama's HTTP API for the agent: /api/chat as
// an NDJSON stream, plus /api/version, /api/tags and /api/show for health.
// Each chat request plays the next scripted turn. A turn line "HOLD" stops
// the stream until release is called or the client goes away (cancelled is
// then closed): that is how a test keeps an answer in flight.
type fakeOllama struct {
	srv *httptest.Server

	mu        sync.Mutex
	turns     [][]string
	n         int
	started   chan struct{} // one value per chat request
	hold      chan struct{}
	cancelled chan struct{}
	cancelOne sync.Once
}

func newFakeOllama(t *testing.T, turns ...[]string) *fakeOllama {
	f := &fakeOllama{turns: turns, started: make(chan struct{}, 16), hold: make(chan struct{}), cancelled: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/version", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"version":"0.6.5"}`)
	})
	mux.HandleFunc("/api/tags", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"models":[{"name":"fake:latest","model":"fake:latest"}]}`)
	})
	mux.HandleFunc("/api/show", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"capabilities":["completion","tools"],"model_info":{"llama.context_length":8192}}`)
	})
	mux.HandleFunc("/api/chat", f.chat)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.release()
		f.srv.Close()
	})
	return f
}

func (f *fakeOllama) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.hold:
	default:
		close(f.hold)
	}
}

func (f *fakeOllama) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	f.mu.Lock()
	var turn []string
	if f.n < len(f.turns) {
		turn = f.turns[f.n]
	} else {
		turn = []string{textChunk("No more script.", true)}
	}
	f.n++
	f.mu.Unlock()
	f.started <- struct{}{}

	w.Header().Set("Content-Type", "application/x-ndjson")
	fl := w.(http.Flusher)
	for _, line := range turn {
		if line == "HOLD" {
			select {
			case <-f.hold:
			case <-r.Context().Done():
				f.cancelOne.Do(func() { close(f.cancelled) })
				return
			}
			continue
		}
		fmt.Fprintln(w, line)
		fl.Flush()
	}
}

// textChunk is one /api/chat stream line with assistant text.
func textChunk(text string, done bool) string {
	m := map[string]any{
		"model": "fake", "created_at": "2026-01-01T00:00:00Z",
		"message": map[string]any{"role": "assistant", "content": text},
		"done":    done,
	}
	if done {
		m["done_reason"] = "stop"
		m["prompt_eval_count"] = 120
		m["eval_count"] = 30
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// toolChunk is one stream line with a native tool call.
func toolChunk(name string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{
		"model": "fake", "created_at": "2026-01-01T00:00:00Z",
		"message": map[string]any{"role": "assistant", "content": "",
			"tool_calls": []any{map[string]any{"function": map[string]any{"name": name, "arguments": args}}}},
		"done": false,
	})
	return string(b)
}

func doneChunk() string { return textChunk("", true) }
