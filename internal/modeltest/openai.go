package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

// NewOpenAI starts a fake OpenAI-compatible server playing turns. URL is
// its base URL, ending in /v1.
func NewOpenAI(t testing.TB, turns ...Turn) *Server {
	s := newServer(t, turns)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		if !s.authorized(w, r) {
			return
		}
		names := make([]string, 0, len(s.models()))
		for name := range s.models() {
			names = append(names, name)
		}
		sort.Strings(names)
		var data []map[string]any
		for _, n := range names {
			data = append(data, map[string]any{"id": n, "object": "model", "created": 1700000000, "owned_by": "fake"})
		}
		writeJSON(w, 200, map[string]any{"object": "list", "data": data})
	})
	mux.HandleFunc("POST /v1/chat/completions", s.openaiChat)
	s.start(mux, "/v1")
	return s
}

func openaiError(w http.ResponseWriter, status int, msg, typ, code string) {
	writeJSON(w, status, openaiErrorBody(msg, typ, code))
}

func openaiErrorBody(msg, typ, code string) any {
	return map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	key := s.Key
	s.mu.Unlock()
	if key == "" || r.Header.Get("Authorization") == "Bearer "+key {
		return true
	}
	openaiError(w, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
	return false
}

// openaiRequest is the part of a /v1/chat/completions body the fake reads.
type openaiRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// contentText reads a message content: a string or a list of text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// request is the fake's record of oreq: each tool result names its tool,
// found through the call id of the assistant message that asked for it.
func (oreq *openaiRequest) request(body []byte, auth string) *Request {
	req := &Request{Model: oreq.Model, Raw: body, Header: map[string]string{"Authorization": auth}}
	names := map[string]string{} // call id -> tool name
	for _, m := range oreq.Messages {
		msg := Message{Role: m.Role, Content: contentText(m.Content), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
			names[tc.ID] = tc.Function.Name
		}
		if m.Role == "tool" {
			msg.ToolName = names[m.ToolCallID]
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, tl := range oreq.Tools {
		req.Tools = append(req.Tools, tl.Function.Name)
	}
	return req
}

// openaiChat answers POST /v1/chat/completions: it checks the key and the
// model, takes the next scripted turn and streams its reply as server-sent
// events.
func (s *Server) openaiChat(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	body, _ := io.ReadAll(r.Body)
	var oreq openaiRequest
	if err := json.Unmarshal(body, &oreq); err != nil {
		openaiError(w, 400, err.Error(), "invalid_request_error", "")
		return
	}
	req := oreq.request(body, r.Header.Get("Authorization"))
	if _, ok := s.models()[oreq.Model]; !ok {
		s.record(req)
		openaiError(w, 404, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", oreq.Model), "invalid_request_error", "model_not_found")
		return
	}
	turn, ok := s.next(req)
	if !ok {
		openaiError(w, 500, "script exhausted", "server_error", "")
		return
	}
	rep := turn(req)
	if rep.Status != 0 {
		writeError(w, rep, func(msg string) any { return openaiErrorBody(msg, "server_error", "") })
		return
	}
	s.openaiStream(w, r, &oreq, rep)
}

// openaiEvents writes one streamed completion as server-sent events.
type openaiEvents struct {
	w       http.ResponseWriter
	fl      http.Flusher
	model   string
	created int64
}

func (e *openaiEvents) event(v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	e.fl.Flush()
}

// chunk is a chat.completion.chunk event with one choice.
func (e *openaiEvents) chunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": e.created, "model": e.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	}
}

// openaiStream streams rep: a first role chunk, a chunk a scripted Chunk,
// the finish reason, the usage when asked for, and [DONE].
func (s *Server) openaiStream(w http.ResponseWriter, r *http.Request, oreq *openaiRequest, rep Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	e := &openaiEvents{w: w, fl: w.(http.Flusher), model: oreq.Model, created: time.Now().Unix()}
	e.event(e.chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	ncalls := 0
	for _, c := range rep.Chunks {
		if c.Hold {
			if !s.wait(r) {
				return
			}
			continue
		}
		delta := map[string]any{}
		if c.Text != "" {
			delta["content"] = c.Text
		}
		if tcs := openaiToolCalls(c, &ncalls); len(tcs) > 0 {
			delta["tool_calls"] = tcs
		}
		e.event(e.chunk(delta, nil))
	}
	if rep.MidError != "" {
		e.event(map[string]any{"error": map[string]any{"message": rep.MidError, "type": "server_error"}})
		return
	}
	if s.cutShort(w, r, rep) {
		return
	}
	finish := rep.Finish
	if finish == "" {
		finish = "stop"
		if ncalls > 0 {
			finish = "tool_calls"
		}
	}
	e.event(e.chunk(map[string]any{}, finish))
	if oreq.StreamOptions.IncludeUsage {
		prompt, eval := s.counts()
		e.event(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": e.created, "model": e.model, "choices": []any{},
			"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": eval, "total_tokens": prompt + eval},
		})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	e.fl.Flush()
}

// openaiToolCalls is the tool_calls delta of c: whole calls numbered on
// from *ncalls, then the raw deltas as scripted; *ncalls counts the calls
// opened so far.
func openaiToolCalls(c Chunk, ncalls *int) []map[string]any {
	var tcs []map[string]any
	for _, tc := range c.Calls {
		m := map[string]any{"index": *ncalls, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": tc.Args}}
		if tc.ID != "" {
			m["id"] = tc.ID
		}
		tcs = append(tcs, m)
		*ncalls++
	}
	for _, d := range c.Deltas {
		fn := map[string]any{"arguments": d.Args}
		m := map[string]any{"index": d.Index, "function": fn}
		if d.Name != "" {
			fn["name"] = d.Name
			m["type"] = "function"
			*ncalls = max(*ncalls, d.Index+1)
		}
		if d.ID != "" {
			m["id"] = d.ID
		}
		tcs = append(tcs, m)
	}
	return tcs
}
