package ollamatest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
)

// askls's agent speaks to Ollama through github.com/ollama/ollama/api
// (v0.17.4, pinned in go.mod); the server here is v0.6.5. This test checks
// that the two agree on the wire: streaming tool calls, tool results sent
// back, /api/show, and the error types.

func goClient(t *testing.T, s *Server) *api.Client {
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api.NewClient(u, http.DefaultClient)
}

func apiTool(name, arg string) api.Tool {
	props := api.NewToolPropertiesMap()
	props.Set(arg, api.ToolProperty{Type: api.PropertyType{"string"}, Description: arg})
	return api.Tool{Type: "function", Function: api.ToolFunction{
		Name: name, Description: name,
		Parameters: api.ToolFunctionParameters{Type: "object", Required: []string{arg}, Properties: props},
	}}
}

func TestRealOllamaGoClientRoundTrip(t *testing.T) {
	s := Start(t)
	m, err := Build(searchThenAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-scripted", m)
	s.MustCreate(t, "askls-notools", m.NoTools())
	c := goClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	show, err := c.Show(ctx, &api.ShowRequest{Model: "askls-scripted"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := show.ModelInfo["llama.context_length"].(float64); int(got) != ContextLength {
		t.Errorf("model_info llama.context_length = %v, want %d", show.ModelInfo["llama.context_length"], ContextLength)
	}
	if !slices.Contains(show.Capabilities, "tools") {
		t.Errorf("capabilities = %v, want tools", show.Capabilities)
	}
	if show, err := c.Show(ctx, &api.ShowRequest{Model: "askls-notools"}); err != nil || slices.Contains(show.Capabilities, "tools") {
		t.Errorf("no-tools model: capabilities %v, err %v", show.Capabilities, err)
	}

	tools := api.Tools{apiTool("search_code", "query"), apiTool("read_file", "path"), apiTool("grep", "pattern")}
	msgs := []api.Message{{Role: "user", Content: "How does Retry back off?"}}
	stream := true
	for i, turn := range searchThenAnswer.Turns {
		var content strings.Builder
		var calls []api.ToolCall
		var last api.ChatResponse
		err := c.Chat(ctx, &api.ChatRequest{
			Model: "askls-scripted", Messages: msgs, Tools: tools, Stream: &stream,
			Options: map[string]any{"num_ctx": 8192}, Think: &api.ThinkValue{Value: false},
		}, func(r api.ChatResponse) error {
			content.WriteString(r.Message.Content)
			calls = append(calls, r.Message.ToolCalls...)
			last = r
			return nil
		})
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		if !last.Done || last.PromptEvalCount == 0 || last.EvalCount == 0 {
			t.Errorf("turn %d: last chunk %+v", i, last)
		}
		if len(turn.Calls) == 0 {
			if content.String() != turn.Text || len(calls) != 0 {
				t.Fatalf("turn %d: %q %v", i, content.String(), calls)
			}
			break
		}
		if len(calls) != len(turn.Calls) {
			t.Fatalf("turn %d: %d calls, want %d (content %q)", i, len(calls), len(turn.Calls), content.String())
		}
		for j, call := range calls {
			want := turn.Calls[j]
			if call.Function.Name != want.Name {
				t.Errorf("turn %d call %d: %s, want %s", i, j, call.Function.Name, want.Name)
			}
			for k, v := range want.Args {
				got, ok := call.Function.Arguments.Get(k)
				// JSON numbers arrive as float64.
				if !ok || strings.TrimSuffix(strings.TrimSpace(jsonString(got)), ".0") != jsonString(v) {
					t.Errorf("turn %d call %d: argument %s = %v, want %v", i, j, k, got, v)
				}
			}
		}
		msgs = append(msgs, api.Message{Role: "assistant", ToolCalls: calls})
		for _, call := range calls {
			msgs = append(msgs, api.Message{Role: "tool", ToolName: call.Function.Name, Content: "retry.go:3: time.Sleep(d)"})
		}
	}

	// The error shapes the agent must turn into advice.
	err = c.Chat(ctx, &api.ChatRequest{Model: "askls-notools", Messages: msgs[:1], Tools: tools}, func(api.ChatResponse) error { return nil })
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != 400 || !strings.Contains(se.ErrorMessage, "does not support tools") {
		t.Errorf("no-tools model: %#v", err)
	}
	err = c.Chat(ctx, &api.ChatRequest{Model: "askls-missing", Messages: msgs[:1], Tools: tools}, func(api.ChatResponse) error { return nil })
	if !errors.As(err, &se) || se.StatusCode != 404 || !strings.Contains(se.ErrorMessage, "not found") {
		t.Errorf("missing model: %#v", err)
	}
	if _, err := c.Show(ctx, &api.ShowRequest{Model: "askls-missing"}); !errors.As(err, &se) || se.StatusCode != 404 {
		t.Errorf("show missing model: %#v", err)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
