package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/internal/modeltest"
)

// TestCredentialsAreNeverEchoed: askls's own credentials (the API key, a
// password in OLLAMA_HOST or --base-url, a key in the URL's query) reach
// no notice, answer, streamed text, thread file, health report, error or
// log line, whatever the model server answers. Before, a server answering
// 500 "upstream failed for key Bearer sk-…" put the key into the notice,
// the answer and the thread; OLLAMA_HOST's password was in notices; a
// refused --base-url http://sk:KEY@… was in the retrieval answer's footer.
func TestCredentialsAreNeverEchoed(t *testing.T) {
	const key = "sk-live-SECRETKEY0123456789abcdef"
	secrets := []string{"SECRETKEY0123456789", "PASSollama9", "KEYinurl9", "QUERYkey123"}
	fail500 := func(*modeltest.Request) modeltest.Reply {
		return modeltest.Reply{Status: 500, Error: "upstream failed for key Bearer " + key + " (Authorization: Bearer " + key + ")"}
	}
	withUser := func(u string) string { return strings.Replace(u, "http://", "http://user:PASSollama9@", 1) }
	ollama500 := modeltest.NewOllama(t, fail500, fail500)
	openai500 := modeltest.NewOpenAI(t, fail500, fail500)
	openai500.Key = key
	okOllama := modeltest.NewOllama(t, modeltest.Say("fine"), modeltest.Say("fine"), modeltest.Say("fine"))
	cases := []struct {
		name string
		cfg  Config
	}{
		{"openai 500 naming the key", Config{Provider: model.ProviderOpenAI, BaseURL: openai500.URL, APIKey: key}},
		{"ollama 500 naming a key", Config{Provider: model.ProviderOllama, Host: withUser(ollama500.URL)}},
		{"OLLAMA_HOST with a password, unreachable", Config{Provider: model.ProviderOllama, Env: Env{OllamaHost: "http://user:PASSollama9@127.0.0.1:1"}}},
		{"OLLAMA_HOST with a password, reachable", Config{Provider: model.ProviderOllama, Env: Env{OllamaHost: withUser(okOllama.URL)}}},
		{"--base-url with user info", Config{Provider: model.ProviderOpenAI, BaseURL: "http://sk:KEYinurl9@127.0.0.1:1/v1"}},
		{"OPENAI_BASE_URL with user info", Config{Provider: model.ProviderOpenAI, Env: Env{BaseURL: "http://sk:KEYinurl9@127.0.0.1:1/v1"}}},
		{"--base-url with ?api_key=", Config{Provider: model.ProviderOpenAI, BaseURL: openai500.URL + "?api_key=QUERYkey123"}},
		{"--base-url with &key=", Config{Provider: model.ProviderOpenAI, BaseURL: "127.0.0.1:1/v1?x=1&key=QUERYkey123"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			cfg := tc.cfg
			cfg.Model = "qwen3:4b"
			cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			a := New(cfg)
			var out strings.Builder
			th := NewThread("/work")
			res, err := a.askThread(context.Background(), project, th, Question{Text: "how does sniff guess the content type"}, Events{
				Delta: func(s string) { out.WriteString(s) },
			})
			if err != nil {
				out.WriteString(err.Error())
			}
			b, _ := json.Marshal(res)
			out.Write(b)
			b, _ = json.Marshal(th) // what the thread store writes
			out.Write(b)
			b, _ = json.Marshal(a.Health(context.Background()))
			out.Write(b)
			b, _ = json.Marshal(a.Config())
			out.Write(b)
			if a.providerErr != nil {
				out.WriteString(a.providerErr.Error())
			}
			out.WriteString(logs.String())
			for _, s := range secrets {
				if strings.Contains(out.String(), s) {
					t.Errorf("%q is echoed:\n%s", s, out.String())
				}
			}
			if res != nil && res.Answer == "" {
				t.Errorf("no answer: %+v", res)
			}
		})
	}
}
