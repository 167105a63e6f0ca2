package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/internal/modeltest"
)

// TestAskThroughOpenAIProvider: `askls ask --provider openai --base-url
// URL --model M` answers with citations through an OpenAI-compatible
// server, the key sent as a bearer token and never printed.
func TestAskThroughOpenAIProvider(t *testing.T) {
	dir, cache := askWorkspace(t)
	f := modeltest.NewOpenAI(t,
		modeltest.Calls("search_code", `{"query":"discount percent"}`),
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("ApplyDiscount lowers the total by percent [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	f.Key = "sk-live-abcdef123456"
	t.Setenv("ASKLS_API_KEY", "sk-live-abcdef123456")
	var out, errb bytes.Buffer
	err := askMain(context.Background(), []string{"--root", dir, "--cache", cache,
		"--provider", "openai", "--base-url", f.URL, "--model", "qwen3:4b", "how is a discount applied?"}, &out, &errb)
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "ApplyDiscount lowers the total by percent [1].") || !strings.Contains(out.String(), "cart/discount.go:") {
		t.Errorf("output:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
	if strings.Contains(out.String()+errb.String(), "sk-live") {
		t.Error("the key was printed")
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("%d requests", n)
	}
}
