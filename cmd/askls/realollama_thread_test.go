package main

import (
	"encoding/json"
	"testing"

	"github.com/askls/askls/internal/ollamatest"
)

// A two-turn conversation through the real Ollama server with scripted
// models: turn 1 searches, reads Retry and cites it; turn 2 (askls ask
// --continue) reads more of the file the first answer cited, chosen from
// that citation, and cites both the new lines and turn 1's evidence [1],
// which the follow-up's prompt carried under its thread number.
func TestRealOllamaThreadFollowUpCitesTurnOne(t *testing.T) {
	s := ollamatest.Start(t)
	create(t, s, "askls-good", searchReadAnswer)
	root := ollamatest.Fixture(t, "retry")
	cache := t.TempDir()

	type threadResult struct {
		askResult
		Thread string `json:"thread"`
	}
	ask := func(model string, extra ...string) threadResult {
		t.Helper()
		args := append([]string{"ask", "--json", "--root", root, "--cache", cache, "--model", model}, extra...)
		out, errOut, code := askls(t, s, root, args...)
		if code != 0 {
			t.Fatalf("askls %v exited %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
		}
		var r threadResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("no JSON (%v):\n%s", err, out)
		}
		return r
	}
	r1 := ask("askls-good", "How does Retry back off between attempts?")
	if r1.Mode != "model" || len(r1.Citations) != 2 || r1.Thread == "" {
		t.Fatalf("turn 1: mode %s thread %q citations %+v", r1.Mode, r1.Thread, r1.Citations)
	}
	first := r1.Citations[0] // retry/retry.go:9-25, thread evidence [1]

	// Turn 2's tool call is built from turn 1's citation: the lines above it.
	create(t, s, "askls-followup", ollamatest.Script{Turns: []ollamatest.Turn{
		{Calls: []ollamatest.ToolCall{call("read_file", map[string]any{"path": first.Path, "start_line": 1, "end_line": first.Start - 1})}},
		{Text: "The package runs a function until it succeeds [3]; the delay doubles after each failure, as cited before [1]."},
	}})
	r2 := ask("askls-followup", "--continue", "What is that package for?")
	if r2.Thread != r1.Thread || r2.Mode != "model" || r2.Refused {
		t.Fatalf("turn 2: thread %q (want %q) mode %s refused %v notice %q", r2.Thread, r1.Thread, r2.Mode, r2.Refused, r2.Notice)
	}
	checkCitations(t, root, r2.askResult)
	if len(r2.Citations) != 2 {
		t.Fatalf("turn 2 citations %+v, want the new lines and turn 1's", r2.Citations)
	}
	read, earlier := r2.Citations[0], r2.Citations[1]
	if read.Path != first.Path || read.Start != 1 || read.End != first.Start-1 {
		t.Errorf("turn 2's own citation %s:%d-%d", read.Path, read.Start, read.End)
	}
	if earlier.Path != first.Path || earlier.Start != first.Start || earlier.End != first.End || earlier.Stale {
		t.Errorf("turn 2's citation of turn 1's evidence: %+v, want %s:%d-%d not stale", earlier, first.Path, first.Start, first.End)
	}
}
