package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/askls/askls/thread"
)

// Six follow-ups of one thread from three askls chat processes at once
// (two questions each): every turn is kept, one after the other. Each
// process used to load the thread once and save it whole after each
// answer, so the last save dropped the other processes' turns.
func TestFollowUpsFromThreeProcesses(t *testing.T) {
	dir, cache := askWorkspace(t)
	r1 := askThreadJSON(t, "--root", dir, "--cache", cache, "--no-model", "what does `ApplyDiscount` do?")
	id, _ := r1["thread"].(string)
	var cmds []*exec.Cmd
	var errs []*bytes.Buffer
	for p := range 3 {
		cmd := exec.Command(os.Args[0], "chat", "--root", dir, "--cache", cache, "--no-model", "--thread", id)
		cmd.Env = append(os.Environ(), asAsklsEnv+"=1")
		cmd.Stdin = strings.NewReader(fmt.Sprintf("who calls ApplyDiscount p%d-0?\nwhat is the Cart p%d-1?\n", p, p))
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, errs = append(cmds, cmd), append(errs, &errb)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("chat %d: %v\n%s", i, err, errs[i])
		}
	}
	store, err := thread.Open(thread.Options{CacheDir: cache, Workspace: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	th, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for i, turn := range th.Turns {
		if i > 0 && turn.At.Before(th.Turns[i-1].At) {
			t.Errorf("turn %d is older than the one before it", i)
		}
		if k := strings.LastIndex(turn.Question, " p"); k >= 0 {
			tags = append(tags, strings.TrimSuffix(turn.Question[k+1:], "?"))
		}
	}
	sort.Strings(tags)
	if got := strings.Join(tags, " "); len(th.Turns) != 7 || got != "p0-0 p0-1 p1-0 p1-1 p2-0 p2-1" {
		t.Errorf("%d turns kept, follow-ups %q; want 7 turns, all six follow-ups", len(th.Turns), got)
	}
}
