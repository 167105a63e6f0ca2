package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// askThreadJSON runs `askls ask --json` with args and decodes the result.
func askThreadJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if err := askMain(context.Background(), append(args, "--json"), &out, &errb); err != nil {
		t.Fatalf("ask %v: %v\n%s", args, err, errb.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	return res
}

// ask, then ask --continue: the second answer is a turn of the same
// thread, builds on the first one's citation, and comes back stale when
// the cited file changed in between; askls threads lists the thread.
func TestAskContinueAndThreads(t *testing.T) {
	dir, cache := askWorkspace(t)
	base := []string{"--root", dir, "--cache", cache, "--no-model"}
	r1 := askThreadJSON(t, append(base, "what does `ApplyDiscount` do?")...)
	id, _ := r1["thread"].(string)
	if len(id) != 16 {
		t.Fatalf("thread %q in %v", r1["thread"], r1)
	}
	// An edit above the function: the lines turn 1 cited are not the same.
	p := filepath.Join(dir, "cart/discount.go")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("// ApplyDiscount"), []byte("// Discounts.\n\n// ApplyDiscount"), 1), 0o644)

	r2 := askThreadJSON(t, append(base, "--continue", "who calls that?")...)
	if r2["thread"] != id {
		t.Fatalf("--continue answered in thread %v, want %s", r2["thread"], id)
	}
	if !strings.Contains(r2["answer"].(string), "Following up on `ApplyDiscount`") {
		t.Errorf("no builds-on line:\n%s", r2["answer"])
	}
	stale := false
	for _, c := range r2["citations"].([]any) {
		if c.(map[string]any)["stale"] == true {
			stale = true
		}
	}
	if !stale {
		t.Errorf("the earlier citation of the edited file is not stale: %v", r2["citations"])
	}
	r3 := askThreadJSON(t, append(base, "--thread", id, "and the cart?")...)
	if r3["thread"] != id {
		t.Fatalf("--thread answered in %v", r3["thread"])
	}

	var out, errb bytes.Buffer
	if err := threadsMain(context.Background(), []string{"--root", dir, "--cache", cache, "--json"}, &out, &errb); err != nil {
		t.Fatalf("threads: %v\n%s", err, errb.String())
	}
	var list []map[string]any
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("threads --json: %v\n%s", err, out.String())
	}
	if len(list) != 1 || list[0]["id"] != id || list[0]["turns"] != 3.0 || list[0]["title"] != "what does `ApplyDiscount` do?" {
		t.Fatalf("threads: %v", list)
	}

	// A thread id that does not exist is a usage error, before any work.
	err := askMain(context.Background(), append(base, "--thread", "0000000000000000", "why?"), &out, &errb)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "no such thread") {
		t.Errorf("unknown thread: %v", err)
	}
	out.Reset()
	if err := threadsMain(context.Background(), []string{"--root", dir, "--cache", cache, "--delete", id}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	err = askMain(context.Background(), append(base, "--continue", "why?"), &out, &errb)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "no thread yet") {
		t.Errorf("--continue with no thread: %v", err)
	}
}

// askls chat as a user runs it, questions piped in: each answer is
// followed by its citations, the second builds on the first, and the
// thread is kept for askls threads.
func TestChatPiped(t *testing.T) {
	bin, err := buildAskls()
	if err != nil {
		t.Fatal(err)
	}
	dir, cache := askWorkspace(t)
	cmd := exec.Command(bin, "chat", "--no-model")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ASKLS_CACHE_DIR="+cache)
	cmd.Stdin = strings.NewReader("what does `ApplyDiscount` do?\n\nwho calls that?\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chat: %v\n%s", err, errb.String())
	}
	s := out.String()
	i := strings.Index(s, "> what does `ApplyDiscount` do?")
	j := strings.Index(s, "> who calls that?")
	if i < 0 || j < i {
		t.Fatalf("the questions are not echoed in order:\n%s", s)
	}
	if !strings.Contains(s[i:j], "[1] cart/discount.go:3:1") {
		t.Errorf("no citation line after the first answer:\n%s", s[i:j])
	}
	if !strings.Contains(s[j:], "Following up on `ApplyDiscount`") || !strings.Contains(s[j:], "[1] cart/discount.go:") {
		t.Errorf("the second answer does not build on the first:\n%s", s[j:])
	}
	if !strings.Contains(errb.String(), "askls: thread ") {
		t.Errorf("stderr does not name the thread: %s", errb.String())
	}
	list := exec.Command(bin, "threads")
	list.Dir = dir
	list.Env = cmd.Env
	got, err := list.CombinedOutput()
	if err != nil || !strings.Contains(string(got), " 2 turns  what does `ApplyDiscount` do?") {
		t.Errorf("askls threads: %v\n%s", err, got)
	}
}

// --thread and --continue together are a usage error of ask and of chat,
// said before anything is indexed.
func TestThreadAndContinueConflict(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--root", dir, "--cache", t.TempDir(), "--no-model", "--thread", "0123456789abcdef", "--continue"}
	var out, errb bytes.Buffer
	err := askMain(context.Background(), append(args, "a question"), &out, &errb)
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "askls ask: --thread and --continue") {
		t.Errorf("ask: %v", err)
	}
	err = chatMain(context.Background(), args, strings.NewReader("a question\n"), &out, &errb)
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "askls chat: --thread and --continue") {
		t.Errorf("chat: %v", err)
	}
}
