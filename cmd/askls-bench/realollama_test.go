package main

// The bench's model round trip through a real Ollama server (v0.6.5) and a
// scripted model (internal/ollamatest). The test binary re-executes itself
// as askls-bench. Without the Ollama binary it skips; with
// ASKLS_REQUIRE_ALL=1 (CI) it fails instead.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/internal/ollamatest"
)

const asBenchEnv = "ASKLS_TEST_RUN_BENCH"

func init() {
	if os.Getenv(asBenchEnv) == "1" {
		main()
		os.Exit(0)
	}
}

// bench runs askls-bench with args against the Ollama server s.
func bench(t *testing.T, s *ollamatest.Server, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asBenchEnv+"=1", "ASKLS_CACHE_DIR="+t.TempDir(), "OLLAMA_HOST="+s.URL)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("askls-bench %v: timed out\nstderr: %s", args, errb.String())
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("askls-bench %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// searchReadAnswer: search, read retry.go's Retry, answer citing both.
var searchReadAnswer = ollamatest.Script{Turns: []ollamatest.Turn{
	{Calls: []ollamatest.ToolCall{{Name: "search_code", Args: map[string]any{"query": "Retry backoff delay", "limit": 1}}}},
	{Calls: []ollamatest.ToolCall{{Name: "read_file", Args: map[string]any{"path": "retry/retry.go", "start_line": 9, "end_line": 25}}}},
	{Text: "Retry waits after each failed attempt and doubles the delay every time [2]; the search found it first [1]."},
}}

// TestRealOllamaBenchAskSplitsModelAndAsklsTime runs `askls-bench
// bench --ask-only` against the real server: the figures must come from model
// answers (Ollama's own durations), and askls's share per hop must be what
// is left of the wall time.
func TestRealOllamaBenchAskSplitsModelAndAsklsTime(t *testing.T) {
	s := ollamatest.Start(t)
	m, err := ollamatest.Build(searchReadAnswer)
	if err != nil {
		t.Fatal(err)
	}
	s.MustCreate(t, "askls-good", m)
	root := ollamatest.Fixture(t, "retry")

	out, errOut, code := bench(t, s, root, "bench", "--ask-only", "--root", root, "--model", "askls-good",
		"--ask-rounds", "1", "--json")
	if code != 0 {
		t.Fatalf("askls-bench bench --ask-only exited %d\nstderr: %s", code, errOut)
	}
	var f askFigures
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("bench output is not the figures: %v\n%s", err, out)
	}
	t.Logf("askls-bench bench --ask-only: %s", out)
	if f.Model != "askls-good" || f.Questions != len(benchQuestions()) {
		t.Errorf("model %q, %d answers; want askls-good, %d", f.Model, f.Questions, len(benchQuestions()))
	}
	if f.HopsMean != 3 || f.ModelP50 <= 0 || f.PromptP50 <= 0 || f.PromptTokens <= 0 || f.Refused != 0 {
		t.Errorf("figures do not come from model answers: %+v", f)
	}
	if f.AnswerP50 < f.ModelP50 || f.OwnPerHopP50 <= 0 || f.RetrievalP50 <= 0 {
		t.Errorf("askls's share is not the rest of the wall time: %+v", f)
	}

	// A model that is not there is an error, never retrieval figures.
	_, errOut, code = bench(t, s, root, "bench", "--ask-only", "--root", root, "--model", "askls-missing", "--ask-rounds", "1")
	if code == 0 || !strings.Contains(errOut, "doctor") {
		t.Errorf("bench with a missing model exited %d; stderr: %s", code, errOut)
	}
}
