package workspace

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/fixture"
)

// TestFollowUpsFromTwoWorkspacesAreAllKept: the language server and the
// command line are two Workspaces over one root and one cache, sharing
// its threads. Three follow-ups of one thread from each at once are all
// kept, one after the other: Ask.Run holds the thread's file lock (an
// operating-system lock on its own open file, so two Workspaces in one
// process exclude each other as two processes do) from before it reads
// the thread until its turn is saved. Without it, each follow-up saved
// the thread as it had loaded it plus its own turn.
func TestFollowUpsFromTwoWorkspacesAreAllKept(t *testing.T) {
	root := fixture.Tree(t, shop)
	cache := t.TempDir()
	ctx := context.Background()
	var ws []*Workspace
	for range 2 {
		w := New(Options{Index: index.Options{Roots: []string{root}, CacheDir: cache}, Logger: quiet()})
		t.Cleanup(w.Close)
		if _, err := w.Open(ctx); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	ask := func(w *Workspace, ref, q string) (string, error) {
		store, th, err := w.FindThread(ref)
		if err != nil {
			return "", err
		}
		a, err := w.Prepare(ctx, Question{Text: q})
		if err != nil {
			return "", err
		}
		ans, err := a.Run(ctx, retrieval(), Turn{Store: store, Thread: th}, agent.Events{})
		if err != nil {
			return "", err
		}
		return th.ID, ans.SaveErr
	}
	id, err := ask(ws[0], ThreadNew, "how is a Discount taken off a price?")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i, w := range ws {
		for k := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := ask(w, id, fmt.Sprintf("what does the Cart hold w%d-%d?", i, k)); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	store, err := ws[1].Threads()
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
		if k := strings.LastIndex(turn.Question, " w"); k >= 0 {
			tags = append(tags, strings.TrimSuffix(turn.Question[k+1:], "?"))
		}
	}
	sort.Strings(tags)
	if got := strings.Join(tags, " "); len(th.Turns) != 7 || got != "w0-0 w0-1 w0-2 w1-0 w1-1 w1-2" {
		t.Errorf("%d turns kept, follow-ups %q; want 7 turns, all six follow-ups", len(th.Turns), got)
	}
}
