//go:build unix

package agent

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/internal/modeltest"
)

// BenchmarkProviderHop measures one model turn through each provider
// against its fake server on loopback, model time excluded: a
// conversation of the size of a real third hop (system prompt, question,
// three tool results of ~6,000 characters) goes out, and a reply of a
// tool call and 60 text chunks comes back. The difference between the two
// sub-benchmarks is what the OpenAI-compatible wire costs per hop over
// Ollama's (request encoding, SSE decoding, delta assembly); both include
// the same loopback HTTP and a fake of similar cost. cpu-ms/op is the CPU
// of the whole process (client and fake) per turn: on a loaded machine it
// says more than the wall clock.
func BenchmarkProviderHop(b *testing.B) {
	result := strings.Repeat("[1] net/http/server.go:120-140\n   120  func (srv *Server) Serve(l net.Listener) error {\n", 80)
	msgs := []model.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: "How does the server shut down gracefully?"}}
	for i := 0; i < 3; i++ {
		msgs = append(msgs,
			model.Message{Role: "assistant", ToolCalls: []model.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "search_code", Args: map[string]any{"query": "graceful shutdown"}}}},
			model.Message{Role: "tool", ToolName: "search_code", ToolCallID: fmt.Sprintf("call_%d", i), Content: result[:6000]})
	}
	reply := func(*modeltest.Request) modeltest.Reply {
		chunks := []modeltest.Chunk{modeltest.CallChunk("read_file", `{"path":"net/http/server.go","start_line":3000,"end_line":3080}`)}
		for i := 0; i < 60; i++ {
			chunks = append(chunks, modeltest.Text("word "))
		}
		return modeltest.Reply{Chunks: chunks}
	}
	for _, kind := range []string{model.ProviderOllama, model.ProviderOpenAI} {
		b.Run(kind, func(b *testing.B) {
			var f *modeltest.Server
			cfg := Config{Provider: kind, Model: "qwen3:4b", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			if kind == model.ProviderOllama {
				f = modeltest.NewOllama(b)
				cfg.Host = f.URL
			} else {
				f = modeltest.NewOpenAI(b)
				cfg.BaseURL = f.URL
			}
			a := New(cfg)
			ctx := context.Background()
			req := model.ChatRequest{Messages: msgs, Tools: tools.Specs()}
			cpu0 := cpuTime()
			for b.Loop() {
				f.Push(reply)
				n := 0
				r, err := a.provider.Chat(ctx, req, func(s string) error { n += len(s); return nil })
				if err != nil || len(r.ToolCalls) != 1 || n != 300 {
					b.Fatalf("%v %+v %d", err, r, n)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
