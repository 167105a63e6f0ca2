package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// NewOllama starts a fake Ollama playing turns. URL is its host.
func NewOllama(t testing.TB, turns ...Turn) *Server {
	s := newServer(t, turns)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"version": s.Version})
	})
	mux.HandleFunc("HEAD /{$}", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		var ms []map[string]any
		for name := range s.models() {
			ms = append(ms, map[string]any{"name": name, "model": name, "modified_at": time.Now().Format(time.RFC3339), "size": 2500000000, "digest": "abc"})
		}
		writeJSON(w, 200, map[string]any{"models": ms})
	})
	mux.HandleFunc("POST /api/show", func(w http.ResponseWriter, r *http.Request) {
		var req api.ShowRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		caps, ok := s.models()[fullName(req.Model)]
		if !ok {
			writeJSON(w, 404, map[string]any{"error": fmt.Sprintf("model '%s' not found", req.Model)})
			return
		}
		writeJSON(w, 200, map[string]any{
			"details":      map[string]any{"family": "qwen3", "parameter_size": "4.0B", "quantization_level": "Q4_K_M"},
			"model_info":   map[string]any{"general.architecture": "qwen3", "qwen3.context_length": s.CtxLen},
			"capabilities": caps,
		})
	})
	mux.HandleFunc("POST /api/chat", s.ollamaChat)
	s.start(mux, "")
	return s
}

func (s *Server) models() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]string, len(s.Models))
	for k, v := range s.Models {
		out[k] = v
	}
	return out
}

// fullName resolves a model name as Ollama does: "tiny" is "tiny:latest".
func fullName(m string) string {
	if !strings.Contains(m, ":") {
		return m + ":latest"
	}
	return m
}

// chatRequest is the fake's record of an Ollama /api/chat request.
func chatRequest(areq *api.ChatRequest, body []byte) *Request {
	req := &Request{Model: fullName(areq.Model), Raw: body}
	for _, m := range areq.Messages {
		msg := Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			b, _ := json.Marshal(tc.Function.Arguments)
			msg.ToolCalls = append(msg.ToolCalls, Call{ID: tc.ID, Name: tc.Function.Name, Args: string(b)})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, tl := range areq.Tools {
		req.Tools = append(req.Tools, tl.Function.Name)
	}
	return req
}

// ollamaChat answers POST /api/chat: it checks the model and its tools
// capability, takes the next scripted turn and streams its reply as NDJSON.
func (s *Server) ollamaChat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var areq api.ChatRequest
	if err := json.Unmarshal(body, &areq); err != nil {
		writeJSON(w, 400, map[string]any{"error": err.Error()})
		return
	}
	req := chatRequest(&areq, body)
	req.Header = map[string]string{"Authorization": r.Header.Get("Authorization")} // Ollama takes none: askls must send none
	caps, ok := s.models()[req.Model]
	if !ok {
		s.record(req)
		writeJSON(w, 404, map[string]any{"error": fmt.Sprintf("model %q not found, try pulling it first", req.Model)})
		return
	}
	if len(req.Tools) > 0 && !strings.Contains(strings.Join(caps, ","), "tools") {
		s.record(req)
		writeJSON(w, 400, map[string]any{"error": fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", req.Model)})
		return
	}
	turn, ok := s.next(req)
	if !ok {
		writeJSON(w, 500, map[string]any{"error": "script exhausted"})
		return
	}
	rep := turn(req)
	if rep.Status != 0 {
		writeError(w, rep, func(msg string) any { return map[string]any{"error": msg} })
		return
	}
	s.ollamaStream(w, r, req.Model, rep)
}

// ollamaStream streams rep as NDJSON lines: a message a scripted Chunk,
// then the done line with the counts.
func (s *Server) ollamaStream(w http.ResponseWriter, r *http.Request, model string, rep Reply) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	fl := w.(http.Flusher)
	line := func(v map[string]any) {
		v["model"] = model
		v["created_at"] = time.Now().UTC().Format(time.RFC3339Nano)
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n'))
		fl.Flush()
	}
	for _, c := range rep.Chunks {
		if c.Hold {
			if !s.wait(r) {
				return
			}
			continue
		}
		msg := map[string]any{"role": "assistant", "content": c.Text}
		if tcs := ollamaToolCalls(c); len(tcs) > 0 {
			msg["tool_calls"] = tcs
		}
		line(map[string]any{"message": msg, "done": false})
	}
	if rep.MidError != "" {
		b, _ := json.Marshal(map[string]any{"error": rep.MidError})
		_, _ = w.Write(append(b, '\n'))
		return
	}
	if s.cutShort(w, r, rep) {
		return
	}
	finish := rep.Finish
	if finish == "" {
		finish = "stop"
	}
	prompt, eval := s.counts()
	line(map[string]any{
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": finish,
		"total_duration": 1500000000, "load_duration": 1000000, "prompt_eval_count": prompt, "prompt_eval_duration": 400000000,
		"eval_count": eval, "eval_duration": 900000000,
	})
}

// ollamaToolCalls is the tool_calls of c's message: Ollama sends calls
// whole, so scripted deltas are sent as whole calls too.
func ollamaToolCalls(c Chunk) []map[string]any {
	calls := c.Calls
	for _, d := range c.Deltas {
		calls = append(calls, Call{ID: d.ID, Name: d.Name, Args: d.Args})
	}
	var tcs []map[string]any
	for i, tc := range calls {
		fn := map[string]any{"index": i, "name": tc.Name, "arguments": argsObject(tc.Args)}
		m := map[string]any{"function": fn}
		if tc.ID != "" {
			m["id"] = tc.ID
		}
		tcs = append(tcs, m)
	}
	return tcs
}
