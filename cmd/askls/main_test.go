package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestUnknownCommandIsUsageError(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"frobnicate"}, &stderr)
	if err == nil || exitCode(err) != 2 {
		t.Fatalf("run(frobnicate) = %v (exit %d), want a usage error with exit 2", err, exitCode(err))
	}
	if !strings.Contains(stderr.String(), "commands:") {
		t.Errorf("usage not printed; stderr = %q", stderr.String())
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &stderr); err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(stderr.String(), name) {
			t.Errorf("help does not list %q", name)
		}
	}
}

func TestHelpAndVersionFlagsBeforeAnyCommand(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var stderr bytes.Buffer
		if err := run(context.Background(), []string{arg}, &stderr); err != nil {
			t.Errorf("askls %s: %v", arg, err)
		}
		if !strings.Contains(stderr.String(), "commands:") {
			t.Errorf("askls %s does not list the commands; stderr = %q", arg, stderr.String())
		}
	}
	for _, arg := range []string{"-version", "--version"} {
		var stderr bytes.Buffer
		out, err := captureStdout(t, func() error { return run(context.Background(), []string{arg}, &stderr) })
		if err != nil || !strings.HasPrefix(out, "askls ") {
			t.Errorf("askls %s = %q, %v (stderr %q), want the version", arg, out, err, stderr.String())
		}
	}
}

func TestFlagsAfterTheQuestion(t *testing.T) {
	dir, cache := askWorkspace(t)
	var out, errb bytes.Buffer
	// The flags follow the question: they must be flags, not words of it
	// (--no-model as a word would send the question to Ollama).
	err := askMain(context.Background(), []string{"--root", dir, "apply a discount percent", "--cache", cache,
		"--ollama-host", "127.0.0.1:1", "--no-model", "--json"}, &out, &errb)
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errb.String())
	}
	var res struct {
		Question, Mode, Notice string
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json after the question was not honoured: %v\n%s", err, out.String())
	}
	if res.Question != "apply a discount percent" || res.Mode != "retrieval" || res.Notice != "" {
		t.Errorf("question %q, mode %q, notice %q: want the question alone, retrieval mode by --no-model", res.Question, res.Mode, res.Notice)
	}

	// After "--" everything is the question, dashes included.
	out.Reset()
	errb.Reset()
	err = askMain(context.Background(), []string{"--root", dir, "--cache", cache, "--no-model", "--json", "--", "-race", "discount"}, &out, &errb)
	if err != nil {
		t.Fatalf("ask -- -race: %v\n%s", err, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Question != "-race discount" {
		t.Errorf("question after --: %q, %v", res.Question, err)
	}

	stdout, err := captureStdout(t, func() error {
		return runSearch(context.Background(), []string{"--root", dir, "discount", "--cache", cache, "--limit", "1", "--json"})
	})
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	var sr struct {
		Query string
		Hits  []any
	}
	if err := json.Unmarshal([]byte(stdout), &sr); err != nil || sr.Query != "discount" || len(sr.Hits) != 1 {
		t.Errorf("search with flags after the query: query %q, %d hits, %v\n%s", sr.Query, len(sr.Hits), err, stdout)
	}
}

func TestBareAsklsInATerminalSaysWhatItIs(t *testing.T) {
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0) // a terminal, as a person's shell gives
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer pty.Close()
	if hint := terminalHint(pty); !strings.Contains(hint, "language server") || !strings.Contains(hint, "askls help") {
		t.Errorf("askls in a terminal says %q", hint)
	}
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if hint := terminalHint(f); hint != "" {
		t.Errorf("askls started by an editor (stdin not a terminal) says %q", hint)
	}
}
