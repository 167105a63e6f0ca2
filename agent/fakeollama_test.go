package agent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// fakeOllama is an HTTP server on loopback that speaks Ollama's real
// protocol: /api/chat as an NDJSON stream (a tool call in its own chunk with
// empty content, a last chunk with done:true, done_reason and the counts),
// /api/tags, /api/show, /api/version, and the real error shapes. Each
// /api/chat request is answered by the next function of the script, which
// sees the request (so that it can cite the evidence numbers the tools
// printed).
type fakeOllama struct {
	t       *testing.T
	srv     *httptest.Server
	models  map[string][]string // name -> capabilities
	ctxLen  int
	prompt  int    // prompt_eval_count of every turn (default 900)
	version string // /api/version (default 0.17.4)

	mu       sync.Mutex
	script   []func(req *api.ChatRequest) reply
	requests []*api.ChatRequest
	closed   chan struct{} // gets a value when a streaming handler saw its request end
}

// reply is one scripted /api/chat answer.
type reply struct {
	status   int      // non-zero: answer with this status and {"error": errMsg}
	errMsg   string   //
	chunks   []string // raw message JSON objects ({"role":..,"content":..}) streamed in order
	midError string   // after the chunks: an {"error": ...} line
	die      bool     // after the chunks: drop the connection without done
	block    bool     // after the chunks: wait until the client goes away
}

func newFakeOllama(t *testing.T, script ...func(req *api.ChatRequest) reply) *fakeOllama {
	f := &fakeOllama{
		t:       t,
		models:  map[string][]string{"qwen3:4b": {"completion", "tools", "thinking"}, "tiny:latest": {"completion"}},
		ctxLen:  40960,
		prompt:  900,
		version: "0.17.4",
		script:  script,
		closed:  make(chan struct{}, 16),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"version": f.version})
	})
	mux.HandleFunc("HEAD /{$}", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		var ms []map[string]any
		for name := range f.models {
			ms = append(ms, map[string]any{"name": name, "model": name, "modified_at": time.Now().Format(time.RFC3339), "size": 2500000000, "digest": "abc"})
		}
		writeJSON(w, 200, map[string]any{"models": ms})
	})
	mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, r *http.Request) {
		var req api.ShowRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		caps, ok := f.models[fullName(req.Model)]
		if !ok {
			writeJSON(w, 404, map[string]any{"error": fmt.Sprintf("model '%s' not found", req.Model)})
			return
		}
		writeJSON(w, 200, map[string]any{
			"details":      map[string]any{"family": "qwen3", "parameter_size": "4.0B", "quantization_level": "Q4_K_M"},
			"model_info":   map[string]any{"general.architecture": "qwen3", "qwen3.context_length": f.ctxLen},
			"capabilities": caps,
		})
	})
	mux.HandleFunc("POST /api/chat", f.chat)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// fullName resolves a model name as Ollama does: "tiny" is "tiny:latest".
func fullName(m string) string {
	if !strings.Contains(m, ":") {
		return m + ":latest"
	}
	return m
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeOllama) chat(w http.ResponseWriter, r *http.Request) {
	var req api.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, 400, map[string]any{"error": err.Error()})
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, &req)
	req.Model = fullName(req.Model)
	if _, ok := f.models[req.Model]; !ok {
		f.mu.Unlock()
		writeJSON(w, 404, map[string]any{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
		return
	}
	if len(req.Tools) > 0 && !strings.Contains(strings.Join(f.models[req.Model], ","), "tools") {
		f.mu.Unlock()
		writeJSON(w, 400, map[string]any{"error": fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Model)})
		return
	}
	if len(f.script) == 0 {
		f.mu.Unlock()
		f.t.Errorf("fake ollama: request %d has no script left", len(f.requests))
		writeJSON(w, 500, map[string]any{"error": "script exhausted"})
		return
	}
	next := f.script[0]
	f.script = f.script[1:]
	f.mu.Unlock()

	rep := next(&req)
	if rep.status != 0 {
		writeJSON(w, rep.status, map[string]any{"error": rep.errMsg})
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	fl := w.(http.Flusher)
	line := func(v map[string]any) {
		v["model"] = req.Model
		v["created_at"] = time.Now().UTC().Format(time.RFC3339Nano)
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n'))
		fl.Flush()
	}
	for _, c := range rep.chunks {
		line(map[string]any{"message": json.RawMessage(c), "done": false})
	}
	switch {
	case rep.midError != "":
		b, _ := json.Marshal(map[string]any{"error": rep.midError})
		_, _ = w.Write(append(b, '\n'))
		return
	case rep.die:
		hj, ok := w.(http.Hijacker)
		if !ok {
			f.t.Error("cannot hijack")
			return
		}
		conn, buf, _ := hj.Hijack()
		_ = buf.Flush()
		_ = conn.Close()
		return
	case rep.block:
		select {
		case <-r.Context().Done():
			f.closed <- struct{}{}
		case <-time.After(10 * time.Second):
			f.t.Error("fake ollama: the client never closed the stream")
		}
		return
	}
	line(map[string]any{
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
		"total_duration": 1500000000, "load_duration": 1000000, "prompt_eval_count": f.prompt, "prompt_eval_duration": 400000000,
		"eval_count": 60, "eval_duration": 900000000,
	})
}

func (f *fakeOllama) reqs() []*api.ChatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*api.ChatRequest(nil), f.requests...)
}

// text is a content chunk.
func text(s string) string {
	b, _ := json.Marshal(map[string]any{"role": "assistant", "content": s})
	return string(b)
}

// toolCall is a chunk with one tool call, empty content, as Ollama sends it.
func toolCall(name, argsJSON string) string {
	return toolCalls(name, argsJSON)
}

// toolCalls is a chunk with several calls: name, args, name, args...
func toolCalls(pairs ...string) string {
	var calls []map[string]any
	for i := 0; i+1 < len(pairs); i += 2 {
		calls = append(calls, map[string]any{
			"id":       fmt.Sprintf("call_%d", i/2),
			"function": map[string]any{"index": i / 2, "name": pairs[i], "arguments": json.RawMessage(pairs[i+1])},
		})
	}
	b, _ := json.Marshal(map[string]any{"role": "assistant", "content": "", "tool_calls": calls})
	return string(b)
}

// say replies with text split into small chunks, like a real stream.
func say(s string) func(*api.ChatRequest) reply {
	return func(*api.ChatRequest) reply { return reply{chunks: split(s, 7)} }
}

func split(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, text(s[:n]))
		s = s[n:]
	}
	return append(out, text(s))
}

// calls replies with tool calls.
func calls(pairs ...string) func(*api.ChatRequest) reply {
	return func(*api.ChatRequest) reply { return reply{chunks: []string{toolCalls(pairs...)}} }
}

// lastTool returns the content of the last tool message of a request.
func lastTool(req *api.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// firstEvidence returns the first evidence number printed in s, 0 if none.
func firstEvidence(s string) int {
	ids := evidenceIDs(s)
	if len(ids) == 0 {
		return 0
	}
	return ids[0]
}
