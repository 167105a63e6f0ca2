package thread

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// childEnv makes the test binary a process that adds follow-ups to a
// thread: "CACHE\tID\tNAME".
const childEnv = "ASKLS_THREAD_TEST_FOLLOWUPS"

func init() {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(followUps(spec))
	}
}

// followUps adds two turns to a thread at once, from two goroutines, each
// as the command line and the language server do: lock, load, answer
// (here a pause standing for the model), save, unlock.
func followUps(spec string) int {
	parts := strings.Split(spec, "\t")
	if len(parts) != 3 {
		fmt.Fprintln(os.Stderr, "bad spec", spec)
		return 2
	}
	s, err := Open(Options{CacheDir: parts[0], Workspace: []string{"/ws/a"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var wg sync.WaitGroup
	failed := make(chan error, 2)
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			th, err := s.Load(parts[1])
			if err != nil {
				failed <- err
				return
			}
			end, err := s.BeginTurn(context.Background(), th)
			if err != nil {
				failed <- err
				return
			}
			defer end()
			time.Sleep(30 * time.Millisecond) // the answer being written
			th.Turns = append(th.Turns, Turn{Question: fmt.Sprintf("%s-%d", parts[2], g), Answer: "a", Mode: "retrieval", At: time.Now().UTC()})
			th.Updated = time.Now().UTC()
			if err := s.Save(th); err != nil {
				failed <- err
			}
		}()
	}
	wg.Wait()
	close(failed)
	for err := range failed {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestFollowUpsFromSeveralProcesses: six follow-ups of one thread, two at
// once from each of three processes, are all kept, one after the other.
func TestFollowUpsFromSeveralProcesses(t *testing.T) {
	cache := t.TempDir()
	s := testStore(t, Options{CacheDir: cache})
	th := s.New()
	th.Turns = append(th.Turns, Turn{Question: "first", Answer: "a", Mode: "retrieval", At: time.Now().UTC()})
	if err := s.Save(th); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for _, name := range []string{"p1", "p2", "p3"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+cache+"\t"+th.ID+"\t"+name)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i+1, err, outs[i])
		}
	}
	got, err := s.Load(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for i, turn := range got.Turns {
		qs = append(qs, turn.Question)
		if i > 0 && turn.At.Before(got.Turns[i-1].At) {
			t.Errorf("turn %d (%s) is older than the turn before it", i, turn.Question)
		}
	}
	sort.Strings(qs)
	want := "first p1-0 p1-1 p2-0 p2-1 p3-0 p3-1"
	if strings.Join(qs, " ") != want {
		t.Errorf("turns kept: %q, want %q", qs, want)
	}
}

// TestLockWaitsAndDeleteRemovesLockFile: a held lock makes another Lock
// wait until its context ends; Delete removes the thread's lock file.
func TestLockWaitsAndDeleteRemovesLockFile(t *testing.T) {
	s := testStore(t, Options{})
	th := s.New()
	if err := s.Save(th); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock(context.Background(), th.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Lock(ctx, th.ID); err == nil {
		t.Error("a held lock was taken again")
	}
	unlock()
	if err := s.Delete(th.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), th.ID+".lock")); !os.IsNotExist(err) {
		t.Errorf("lock file after Delete: %v", err)
	}
	if _, err := s.Lock(context.Background(), "../x"); err == nil {
		t.Error("a bad id was locked")
	}
}
