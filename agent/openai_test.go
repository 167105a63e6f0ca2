package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/internal/modeltest"
)

// TestLoopThroughOpenAI runs the loop tests again with the agent and the
// fake speaking the OpenAI-compatible wire: budgets, text tool calls,
// citations, refusals, cancellation behave the same for both providers.
func TestLoopThroughOpenAI(t *testing.T) {
	fakeKind = model.ProviderOpenAI
	defer func() { fakeKind = model.ProviderOllama }()
	for _, tt := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"NormalConversation", TestNormalConversation},
		{"CitingMoreThanWasRead", TestCitingMoreThanWasRead},
		{"CitingAFileNeverRead", TestCitingAFileNeverRead},
		{"LinesPastTheEnd", TestLinesPastTheEnd},
		{"MalformedArgumentsAndUnknownTool", TestMalformedArgumentsAndUnknownTool},
		{"SameCallTenTimes", TestSameCallTenTimes},
		{"ToolCallWrittenAsText", TestToolCallWrittenAsText},
		{"ModelThatNeverStops", TestModelThatNeverStops},
		{"FullContextWindowEndsTools", TestFullContextWindowEndsTools},
		{"ContextBudgetCutsEvidence", TestContextBudgetCutsEvidence},
		{"StreamDies", TestStreamDies},
		{"AnswerWithoutSearchingIsNudgedOnce", TestAnswerWithoutSearchingIsNudgedOnce},
		{"CancelMidStream", TestCancelMidStream},
		{"TimeoutAnswersWithWhatItHas", TestTimeoutAnswersWithWhatItHas},
		{"ToolPanicIsAToolError", TestToolPanicIsAToolError},
		{"LoopOnRealIndex", TestLoopOnRealIndex},
	} {
		t.Run(tt.name, tt.fn)
	}
}

func openaiAgent(f *modeltest.Server, cfg Config) *Agent {
	cfg.Provider = model.ProviderOpenAI
	if f != nil {
		cfg.BaseURL = f.URL
	}
	if cfg.Model == "" {
		cfg.Model = "qwen3:4b"
	}
	return testAgent(nil, cfg)
}

func TestOpenAIBadArgumentsReachTheModel(t *testing.T) {
	f := modeltest.NewOpenAI(t,
		func(*modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Chunks: []modeltest.Chunk{{Calls: []modeltest.Call{{ID: "c1", Name: "search_code", Args: `{"query": "sniff`}}}}}
		},
		func(req *modeltest.Request) modeltest.Reply {
			if m := req.Messages[len(req.Messages)-1]; m.Role != "tool" || m.ToolCallID != "c1" || !strings.Contains(m.Content, "not a JSON object") {
				t.Errorf("tool message %+v", m)
			}
			return modeltest.Calls("search_code", `{"query":"sniff"}`)(req)
		},
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("sniff guesses [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	got := ask(t, openaiAgent(f, Config{}), project, "q")
	if got.res.Refused || len(got.res.Citations) != 1 {
		t.Errorf("answer %q", got.res.Answer)
	}
}

func TestOpenAICancelledStreamIsClosed(t *testing.T) {
	f := modeltest.NewOpenAI(t,
		modeltest.Calls("search_code", `{"query":"sniff"}`),
		func(*modeltest.Request) modeltest.Reply {
			return modeltest.Reply{Chunks: []modeltest.Chunk{modeltest.Text("The answer is [1]")}, Block: true}
		})
	a := openaiAgent(f, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.ask(ctx, project, Question{Text: "q"}, Events{Delta: func(string) { cancel() }})
		done <- err
	}()
	select {
	case <-f.Cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream was not closed")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}

func TestOpenAIHealth(t *testing.T) {
	f := modeltest.NewOpenAI(t)
	h := openaiAgent(f, Config{}).Health(context.Background())
	if h.Provider != model.ProviderOpenAI || !h.Reachable || !h.ModelPresent || len(h.Problems) != 0 || h.Host != f.URL {
		t.Errorf("healthy: %+v", h)
	}
	h = openaiAgent(f, Config{Model: "gpt-x"}).Health(context.Background())
	if h.ModelPresent || len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "it lists qwen3:4b, tiny:latest") {
		t.Errorf("missing model: %+v", h)
	}
	f.Key = "k"
	h = openaiAgent(f, Config{}).Health(context.Background())
	if h.Reachable || len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "refused the API key (HTTP 401)") {
		t.Errorf("bad key: %+v", h)
	}
	h = openaiAgent(nil, Config{BaseURL: ""}).Health(context.Background())
	if len(h.Problems) != 1 || !strings.Contains(h.Problems[0], "--base-url") {
		t.Errorf("no base URL: %+v", h)
	}
}

// TestAPIKeyFromEnvironment: the environment's key (Config.Env, read by
// the command) is the openai provider's default key, an explicit one
// wins, and Ollama gets none.
func TestAPIKeyFromEnvironment(t *testing.T) {
	env := Env{APIKey: "from-env", BaseURL: "http://h/v1"}
	a := New(Config{Provider: model.ProviderOpenAI, Env: env})
	if k, u := a.Config().APIKey, a.Config().BaseURL; k != "from-env" || u != "http://h/v1" {
		t.Errorf("key %q base URL %q", k, u)
	}
	if k := New(Config{Provider: model.ProviderOpenAI, APIKey: "explicit", Env: env}).Config().APIKey; k != "explicit" {
		t.Errorf("key %q", k)
	}
	if c := New(Config{Env: env}).Config(); c.APIKey != "" || c.BaseURL != "" {
		t.Errorf("Ollama got a key %q or a base URL %q", c.APIKey, c.BaseURL)
	}
}

// TestEnvironmentKeyNeverReachesOllama: with the environment's key set
// (as when OPENAI_API_KEY is exported) an answer through Ollama sends no
// Authorization header and shows the key nowhere.
func TestEnvironmentKeyNeverReachesOllama(t *testing.T) {
	const key = "sk-env-NEVERTOOLLAMA0123"
	f := modeltest.NewOllama(t,
		modeltest.Calls("search_code", `{"query":"sniff"}`),
		func(req *modeltest.Request) modeltest.Reply {
			return modeltest.Say(fmt.Sprintf("sniff guesses [%d].", modeltest.FirstEvidence(req.LastTool())))(req)
		})
	a := New(Config{Host: f.URL, Model: "qwen3:4b", Env: Env{APIKey: key}})
	got := ask(t, a, project, "how does sniff guess the content type")
	if got.res.Mode != ModeModel || got.res.Refused {
		t.Fatalf("mode %q answer %q notice %q", got.res.Mode, got.res.Answer, got.res.Notice)
	}
	reqs := f.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached Ollama")
	}
	for i, r := range reqs {
		if h := r.Header["Authorization"]; h != "" {
			t.Errorf("request %d to Ollama carries Authorization %q", i, h)
		}
		if strings.Contains(string(r.Raw), key) {
			t.Errorf("request %d to Ollama holds the key", i)
		}
	}
}

// TestNotOllamaIsNamed: a web server where Ollama should be is named in
// one line, not quoted as a whole HTML page.
func TestNotOllamaIsNamed(t *testing.T) {
	f := modeltest.NewOllama(t, func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Status: 404, Body: modeltest.HTMLPage}
	})
	got := ask(t, testAgent(f, Config{}), project, "how does sniff guess the content type")
	want := "the server at " + f.URL + " is not Ollama: it answered HTTP 404 with an HTML page"
	if got.res.Mode != ModeRetrieval || !strings.Contains(got.res.Notice, want) || strings.Contains(got.res.Notice, "<") {
		t.Errorf("mode %q notice %q", got.res.Mode, got.res.Notice)
	}
}

// TestSilentTurnEndsAtTheRequestTimeout: a server that starts a stream and
// then says nothing ends the turn at Config.RequestTimeout, for either
// provider, and the answer falls back to retrieval saying why.
func TestSilentTurnEndsAtTheRequestTimeout(t *testing.T) {
	for _, kind := range []string{model.ProviderOllama, model.ProviderOpenAI} {
		t.Run(kind, func(t *testing.T) {
			fakeKind = kind
			defer func() { fakeKind = model.ProviderOllama }()
			f := newFakeOllama(t, func(*modeltest.Request) modeltest.Reply { return modeltest.Reply{Block: true} })
			got := ask(t, testAgent(f, Config{RequestTimeout: 300 * time.Millisecond}), project, "how does sniff guess the content type")
			if got.res.Mode != ModeRetrieval || !strings.Contains(got.res.Notice, "did not finish a turn within 300ms") {
				t.Errorf("mode %q notice %q", got.res.Mode, got.res.Notice)
			}
		})
	}
}

// TestOpenAINoServer: nothing listening at the base URL is retrieval mode,
// with the reason.
func TestOpenAINoServer(t *testing.T) {
	t.Run("no server", func(t *testing.T) {
		got := ask(t, openaiAgent(nil, Config{BaseURL: "http://127.0.0.1:1/v1"}), project, "how does sniff guess the content type")
		if got.res.Mode != ModeRetrieval || !strings.Contains(got.res.Notice, "no server at http://127.0.0.1:1/v1") {
			t.Errorf("mode %q notice %q", got.res.Mode, got.res.Notice)
		}
	})
}
