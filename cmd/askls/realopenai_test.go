package main

// The OpenAI-compatible provider end to end, over a real server's wire:
// Ollama v0.6.5 serves /v1/chat/completions (server-sent events, tool_calls
// deltas, finish_reason) and /v1/models. The scripted model searches,
// reads and answers; askls talks to it with --provider openai.

import (
	"strings"
	"testing"

	"github.com/askls/askls/internal/ollamatest"
)

func TestRealOllamaOpenAIProviderSearchesReadsAndCites(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-good", searchReadAnswer)
	root := ollamatest.Fixture(t, "retry")
	base := s.URL + "/v1"

	r := askJSON(t, s, root, "askls-good:latest", "--provider", "openai", "--base-url", base)
	if r.Mode != "model" || r.Refused {
		t.Fatalf("mode %s refused %v notice %q; want a model answer through /v1", r.Mode, r.Refused, r.Notice)
	}
	if len(r.Steps) != 2 || r.Steps[0].Tool != "search_code" || r.Steps[1].Tool != "read_file" {
		t.Fatalf("steps = %+v, want search_code then read_file", r.Steps)
	}
	if r.Steps[1].Args["path"] != "retry/retry.go" {
		t.Errorf("read_file args %v: the tool call's arguments were not assembled", r.Steps[1].Args)
	}
	checkCitations(t, root, r)
	if len(r.Citations) != 2 || r.Citations[0].Path != "retry/retry.go" || r.Citations[0].Start != 9 || r.Citations[0].End != 25 {
		t.Fatalf("citations = %+v", r.Citations)
	}
	if !strings.Contains(r.Answer, "doubles the delay") {
		t.Errorf("answer %q is not the scripted one", r.Answer)
	}

	// doctor through /v1/models.
	out, errOut, code := askls(t, s, root, "doctor", "--provider", "openai", "--base-url", base, "--model", "askls-good:latest")
	if code != 0 || !strings.Contains(out, "model       askls-good:latest: served") {
		t.Errorf("doctor exited %d:\n%s\nstderr: %s", code, out, errOut)
	}
	out, _, code = askls(t, s, root, "doctor", "--provider", "openai", "--base-url", base, "--model", "nope")
	if code == 0 || !strings.Contains(out, "model nope is not served by "+base) {
		t.Errorf("doctor with a missing model exited %d:\n%s", code, out)
	}
	// A missing model over the real wire: retrieval mode, saying why.
	r = askJSON(t, s, root, "nope", "--provider", "openai", "--base-url", base)
	if r.Mode != "retrieval" || !strings.Contains(r.Notice, "model nope is not available on "+base) {
		t.Errorf("missing model: mode %s notice %q", r.Mode, r.Notice)
	}
}
