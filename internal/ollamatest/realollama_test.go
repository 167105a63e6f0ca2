package ollamatest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// These tests drive the real Ollama server (v0.6.5) with generated models.
// They skip when the binary is missing (see Start) and fail then in CI.

var searchThenAnswer = Script{Turns: []Turn{
	{Calls: []ToolCall{{Name: "search_code", Args: map[string]any{"query": "retry backoff"}}}},
	{Calls: []ToolCall{
		{Name: "read_file", Args: map[string]any{"path": "retry.go", "start": 1, "end": 20}},
		{Name: "grep", Args: map[string]any{"pattern": "Sleep"}},
	}},
	{Text: "Retry doubles the delay after each failure [1] and gives up after five tries [2]."},
}}

var tools = []map[string]any{
	tool("search_code", "query"), tool("read_file", "path"), tool("grep", "pattern"),
}

func tool(name, arg string) map[string]any {
	return map[string]any{"type": "function", "function": map[string]any{
		"name": name, "description": name,
		"parameters": map[string]any{"type": "object", "required": []string{arg},
			"properties": map[string]any{arg: map[string]any{"type": "string", "description": arg}}},
	}}
}

// chat posts a streaming /api/chat and returns the status, the NDJSON
// objects (or the error body).
func chat(t *testing.T, s *Server, model string, msgs []map[string]any, withTools bool) (int, []map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req := map[string]any{"model": model, "messages": msgs, "stream": true, "options": map[string]any{"num_ctx": 8192}}
	if withTools {
		req["tools"] = tools
	}
	code, body, err := s.Post(ctx, "/api/chat", req)
	if err != nil {
		t.Fatalf("/api/chat: %v", err)
	}
	if code != http.StatusOK {
		return code, nil, string(body)
	}
	lines, err := Lines(body)
	if err != nil {
		t.Fatal(err)
	}
	return code, lines, string(body)
}

type reply struct {
	content string
	calls   []ToolCall
	chunks  int
	final   map[string]any
}

func collect(t *testing.T, lines []map[string]any) reply {
	t.Helper()
	var r reply
	for _, l := range lines {
		if e, ok := l["error"]; ok {
			t.Fatalf("error in stream: %v", e)
		}
		r.chunks++
		msg, _ := l["message"].(map[string]any)
		c, _ := msg["content"].(string)
		r.content += c
		tcs, _ := msg["tool_calls"].([]any)
		for _, tc := range tcs {
			fn, _ := tc.(map[string]any)["function"].(map[string]any)
			name, _ := fn["name"].(string)
			args, _ := fn["arguments"].(map[string]any)
			r.calls = append(r.calls, ToolCall{Name: name, Args: args})
		}
		if l["done"] == true {
			r.final = l
		}
	}
	if r.final == nil {
		t.Fatalf("stream ended without done:true: %v", lines)
	}
	return r
}

func callsString(cs []ToolCall) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.JSON())
	}
	return strings.Join(parts, " ")
}

func TestRealOllamaStreamsScriptedToolCallsThenAnswer(t *testing.T) {
	s := Start(t)
	m, err := Build(searchThenAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-scripted", m)

	msgs := []map[string]any{
		{"role": "system", "content": "You answer questions about code."},
		{"role": "user", "content": "How does Retry back off?"},
	}
	for i, turn := range searchThenAnswer.Turns {
		code, lines, body := chat(t, s, "askls-scripted", msgs, true)
		if code != http.StatusOK {
			t.Fatalf("turn %d: status %d: %s", i, code, body)
		}
		r := collect(t, lines)
		logMetrics(t, fmt.Sprintf("turn %d", i), r.final)
		if r.final["done_reason"] != "stop" {
			t.Errorf("turn %d: done_reason = %v, want stop", i, r.final["done_reason"])
		}
		if len(turn.Calls) > 0 {
			if got, want := callsString(r.calls), callsString(turn.Calls); got != want {
				t.Fatalf("turn %d: tool_calls = %s, want %s (content %q)", i, got, want, r.content)
			}
			if r.content != "" {
				t.Errorf("turn %d: content %q beside tool calls, want none", i, r.content)
			}
			var tcs []map[string]any
			for _, c := range r.calls {
				tcs = append(tcs, map[string]any{"function": map[string]any{"name": c.Name, "arguments": c.Args}})
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": "", "tool_calls": tcs})
			for _, c := range r.calls {
				msgs = append(msgs, map[string]any{"role": "tool", "content": "result of " + c.Name + ": retry.go:3: time.Sleep(d)"})
			}
			continue
		}
		if len(r.calls) > 0 {
			t.Fatalf("turn %d: unexpected tool calls %s", i, callsString(r.calls))
		}
		if r.content != turn.Text {
			t.Fatalf("turn %d: answer %q, want %q", i, r.content, turn.Text)
		}
	}
}

func TestRealOllamaAnswersWithoutToolsStreamsPieces(t *testing.T) {
	s := Start(t)
	m, err := Build(Script{Turns: []Turn{{Text: "No tools were offered, so this is the answer."}}})
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-plain", m)
	code, lines, body := chat(t, s, "askls-plain", []map[string]any{{"role": "user", "content": "hi"}}, false)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	r := collect(t, lines)
	if r.content != "No tools were offered, so this is the answer." {
		t.Fatalf("answer %q", r.content)
	}
	// Without tools the server streams each token as it comes.
	if r.chunks < 3 {
		t.Errorf("answer arrived in %d chunks, want one per piece", r.chunks)
	}
	logMetrics(t, "plain", r.final)
}

func TestRealOllamaNoToolsTemplateIsRejected(t *testing.T) {
	s := Start(t)
	m, err := Build(searchThenAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-notools", m.NoTools())
	code, _, body := chat(t, s, "askls-notools", []map[string]any{{"role": "user", "content": "hi"}}, true)
	if code != http.StatusBadRequest || !strings.Contains(body, "does not support tools") {
		t.Fatalf("status %d body %s; want 400 … does not support tools", code, body)
	}
	t.Logf("no-tools model: %d %s", code, strings.TrimSpace(body))
}

func TestRealOllamaMissingModelIs404(t *testing.T) {
	s := Start(t)
	code, _, body := chat(t, s, "askls-missing", []map[string]any{{"role": "user", "content": "hi"}}, true)
	if code != http.StatusNotFound || !strings.Contains(body, `model \"askls-missing\" not found`) {
		t.Fatalf("status %d body %s; want 404 model \"askls-missing\" not found", code, body)
	}
	t.Logf("missing model: %d %s", code, strings.TrimSpace(body))
}

func TestRealOllamaRandomModelDoesNotCrashTheServer(t *testing.T) {
	s := Start(t)
	m, err := Random(searchThenAnswer, 7)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-random", m)
	code, lines, body := chat(t, s, "askls-random", []map[string]any{{"role": "user", "content": "How does Retry back off?"}}, true)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	r := collect(t, lines)
	t.Logf("random model said %q, tool calls %s", r.content, callsString(r.calls))
	logMetrics(t, "random", r.final)
	if _, err := s.Version(); err != nil {
		t.Fatalf("server gone after the random model: %v", err)
	}
}

// logMetrics logs the model-side numbers Ollama reports.
func logMetrics(t *testing.T, what string, final map[string]any) {
	t.Helper()
	ms := func(k string) float64 { f, _ := final[k].(float64); return f / 1e6 }
	n := func(k string) int { f, _ := final[k].(float64); return int(f) }
	b, _ := json.Marshal(map[string]any{
		"prompt_eval_count": n("prompt_eval_count"), "prompt_eval_ms": ms("prompt_eval_duration"),
		"eval_count": n("eval_count"), "eval_ms": ms("eval_duration"),
		"load_ms": ms("load_duration"), "total_ms": ms("total_duration"),
	})
	t.Logf("%s: %s", what, b)
}
