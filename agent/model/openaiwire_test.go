package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestReadEvents(t *testing.T) {
	in := ": a comment\nevent: x\ndata: {\"a\":\ndata:1}\n\ndata:{\"b\":2}\n\nid: 3\n\n\ndata: [DONE]\n\ndata: {\"after\":1}\n\n"
	var got []string
	if err := readEvents(strings.NewReader(in), func(d []byte) error { got = append(got, string(d)); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "{\"a\":\n1}|{\"b\":2}" {
		t.Errorf("events %q", got)
	}
	// The last event without its blank line still counts; errors from fn stop.
	got = nil
	boom := errors.New("boom")
	err := readEvents(strings.NewReader("data: 1\n\ndata: 2"), func(d []byte) error {
		got = append(got, string(d))
		if string(d) == "2" {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || strings.Join(got, "|") != "1|2" {
		t.Errorf("events %q err %v", got, err)
	}
}

func TestToolCallsNumberedZeroWithDistinctIDs(t *testing.T) {
	var a toolAssembler
	a.add(0, "x1", "search_code", `{"query":"a"}`)
	a.add(0, "x2", "grep", `{"pattern":`)
	a.add(0, "", "", `"b"}`)
	calls := a.calls()
	if len(calls) != 2 || calls[0].ID != "x1" || calls[1].Name != "grep" || calls[1].Args["pattern"] != "b" {
		t.Errorf("calls %+v", calls)
	}
}

// TestUnstreamedAnswer: a server that ignores "stream" and answers with
// one JSON object is read too.
func TestUnstreamedAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello",`+
			`"tool_calls":[{"id":"t1","type":"function","function":{"name":"grep","arguments":"{\"pattern\":\"x\"}"}}]},"finish_reason":"tool_calls"}],`+
			`"usage":{"prompt_tokens":12,"completion_tokens":3}}`)
	}))
	defer srv.Close()
	p, err := newOpenAI(Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	r, err := p.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}}, func(s string) error { text.WriteString(s); return nil })
	if err != nil || text.String() != "Hello" || len(r.ToolCalls) != 1 || r.ToolCalls[0].Args["pattern"] != "x" || r.PromptTokens != 12 || r.FinishReason != "tool_calls" {
		t.Errorf("reply %+v text %q err %v", r, text.String(), err)
	}
}
