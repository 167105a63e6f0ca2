package model

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/internal/modeltest"
)

// openaiTurn runs one turn through the OpenAI provider.
func openaiTurn(t *testing.T, f *modeltest.Server, cfg Config) (string, ChatReply, error) {
	t.Helper()
	cfg.Provider, cfg.BaseURL = ProviderOpenAI, f.URL
	if cfg.Model == "" {
		cfg.Model = "qwen3:4b"
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	reply, err := ChatWithRetry(context.Background(), p, ChatRequest{
		Messages: []Message{{Role: "user", Content: "q"}},
		Tools:    []ToolSpec{{Name: "search_code", Description: "search", Params: []ToolParam{{Name: "query", Type: "string", Required: true}}}},
	}, func(s string) error { text.WriteString(s); return nil })
	return text.String(), reply, err
}

func TestOpenAIDeltasSplitAcrossChunks(t *testing.T) {
	f := modeltest.NewOpenAI(t, func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Chunks: []modeltest.Chunk{
			{Deltas: []modeltest.Delta{{Index: 0, ID: "call_a", Name: "search_code", Args: `{"qu`}}},
			{Deltas: []modeltest.Delta{{Index: 0, Args: `ery": "sniff`}}},
			{Deltas: []modeltest.Delta{{Index: 1, ID: "call_b", Name: "read_", Args: ""}}},
			{Deltas: []modeltest.Delta{{Index: 1, Name: "file", Args: `{"path":"server/server.go",`}, {Index: 0, Args: ` type"}`}}},
			{Deltas: []modeltest.Delta{{Index: 1, Args: `"start_line":3}`}}},
		}}
	})
	_, reply, err := openaiTurn(t, f, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if reply.FinishReason != "tool_calls" || len(reply.ToolCalls) != 2 {
		t.Fatalf("reply %+v", reply)
	}
	a, b := reply.ToolCalls[0], reply.ToolCalls[1]
	if a.ID != "call_a" || a.Name != "search_code" || a.Args["query"] != "sniff type" {
		t.Errorf("first call %+v", a)
	}
	if b.ID != "call_b" || b.Name != "read_file" || b.Args["path"] != "server/server.go" || b.Args["start_line"] != float64(3) {
		t.Errorf("second call %+v", b)
	}
	if reply.PromptTokens != 900 || reply.EvalTokens != 60 {
		t.Errorf("usage %+v", reply)
	}
}

func TestOpenAIToolCallAndTextInOneChunkWithoutIDs(t *testing.T) {
	f := modeltest.NewOpenAI(t, func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Chunks: []modeltest.Chunk{{
			Text:  "Let me search.",
			Calls: []modeltest.Call{{Name: "search_code", Args: `{"query":"a"}`}, {Name: "grep", Args: `{"pattern":"b"}`}},
		}}}
	})
	text, reply, err := openaiTurn(t, f, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if text != "Let me search." || len(reply.ToolCalls) != 2 {
		t.Fatalf("text %q reply %+v", text, reply)
	}
	if reply.ToolCalls[0].ID != "call_0" || reply.ToolCalls[1].ID != "call_1" || reply.ToolCalls[1].Args["pattern"] != "b" {
		t.Errorf("calls without ids %+v", reply.ToolCalls)
	}
}

func TestOpenAIErrors(t *testing.T) {
	old := retryDelays
	retryDelays = []time.Duration{time.Millisecond, time.Millisecond}
	defer func() { retryDelays = old }()
	status := func(code int, msg string) modeltest.Turn {
		return func(*modeltest.Request) modeltest.Reply { return modeltest.Reply{Status: code, Error: msg} }
	}
	t.Run("401", func(t *testing.T) {
		f := modeltest.NewOpenAI(t)
		f.Key = "right"
		_, _, err := openaiTurn(t, f, Config{APIKey: "wrong-key-1234"})
		var me *ModelError
		if !errors.As(err, &me) || me.Status != 401 || !me.Unusable || !strings.Contains(me.Msg, "ASKLS_API_KEY") || strings.Contains(me.Msg, "wrong-key-1234") {
			t.Errorf("err %v", err)
		}
		f2 := modeltest.NewOpenAI(t, modeltest.Say("ok"))
		f2.Key = "right"
		if text, _, err := openaiTurn(t, f2, Config{APIKey: "right"}); err != nil || text != "ok" {
			t.Errorf("with the key: %q %v", text, err)
		}
		if h := f2.Requests()[0].Header["Authorization"]; h != "Bearer right" {
			t.Errorf("authorization %q", h)
		}
	})
	t.Run("404 model", func(t *testing.T) {
		f := modeltest.NewOpenAI(t)
		_, _, err := openaiTurn(t, f, Config{Model: "gpt-nope"})
		var me *ModelError
		if !errors.As(err, &me) || me.Status != 404 || !strings.Contains(me.Msg, "model gpt-nope is not available") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("404 HTML", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, func(*modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Status: 404, Body: modeltest.HTMLPage}
		})
		_, _, err := openaiTurn(t, f, Config{})
		if err == nil || !strings.Contains(err.Error(), "is not an OpenAI-compatible API: it answered HTTP 404 with an HTML page") || strings.Contains(err.Error(), "<") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("429 then answer", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, status(429, "rate limited"), status(503, "busy"), modeltest.Say("fine"))
		text, _, err := openaiTurn(t, f, Config{})
		if err != nil || text != "fine" || len(f.Requests()) != 3 {
			t.Errorf("text %q err %v after %d requests", text, err, len(f.Requests()))
		}
	})
	t.Run("429 for good", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, status(429, "x"), status(429, "x"), status(429, "x"))
		_, _, err := openaiTurn(t, f, Config{})
		if err == nil || !strings.Contains(err.Error(), "is overloaded (HTTP 429, 3 tries)") || len(f.Requests()) != 3 {
			t.Errorf("err %v after %d requests", err, len(f.Requests()))
		}
	})
	t.Run("500 is not retried", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, status(500, "boom"))
		_, _, err := openaiTurn(t, f, Config{})
		if err == nil || !strings.Contains(err.Error(), "HTTP 500: boom") || len(f.Requests()) != 1 {
			t.Errorf("err %v", err)
		}
	})
	t.Run("error mid-stream", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, func(*modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Chunks: []modeltest.Chunk{modeltest.Text("partial")}, MidError: "the model crashed"}
		})
		text, _, err := openaiTurn(t, f, Config{})
		if text != "partial" || err == nil || !strings.Contains(err.Error(), "stopped the answer") || !strings.Contains(err.Error(), "the model crashed") {
			t.Errorf("text %q err %v", text, err)
		}
	})
	t.Run("connection dropped", func(t *testing.T) {
		f := modeltest.NewOpenAI(t, func(*modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Chunks: []modeltest.Chunk{modeltest.Text("partial")}, Die: true}
		})
		_, _, err := openaiTurn(t, f, Config{})
		if err == nil {
			t.Error("a dropped stream is a whole turn")
		}
	})
}

func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":      "http://127.0.0.1:8080/v1",
		"127.0.0.1:1234/v1/":         "http://127.0.0.1:1234/v1",
		"https://api.example.com/v1": "https://api.example.com/v1",
		"http://gpu:8000/openai/v1":  "http://gpu:8000/openai/v1",
	} {
		if got, err := baseURL(in); err != nil || got != want {
			t.Errorf("baseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x/v1", "http://user:secret@host/v1"} {
		if _, err := baseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
