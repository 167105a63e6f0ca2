package workspace

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/thread"
)

var shop = map[string]string{
	"shop/price.go": "package shop\n\n// Discount takes a percentage off a price.\nfunc Discount(price, pct int) int {\n\treturn price - price*pct/100\n}\n",
	"shop/cart.go":  "package shop\n\n// Cart holds the items of an order.\ntype Cart struct{ Items []int }\n",
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func retrieval() *agent.Agent { return agent.New(agent.Config{NoModel: true, Logger: quiet()}) }

// openShop opens and syncs a workspace of the shop tree in the test.
func openShop(t *testing.T, hooks Hooks) (*Workspace, string) {
	t.Helper()
	root := fixture.Tree(t, shop)
	w := New(Options{Index: index.Options{Roots: []string{root}, CacheDir: t.TempDir()}, Logger: quiet(), Hooks: hooks})
	t.Cleanup(w.Close)
	if _, err := w.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w, root
}

// recorder is an Indexing that keeps what it heard.
type recorder struct {
	mu    sync.Mutex
	done  int
	stats index.SyncStats
	err   error
}

func (r *recorder) Progress(index.Progress) {}

func (r *recorder) Done(st index.SyncStats, _ time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	r.stats, r.err = st, err
}

// TestAskKeepsTheTurn: a question asked from a file, as the next turn of a
// new thread, is answered with citations of the workspace's files and the
// turn is saved in the thread store of the roots.
func TestAskKeepsTheTurn(t *testing.T) {
	rec := &recorder{}
	w, root := openShop(t, Hooks{Starting: func(context.Context, []string) Indexing { return rec }})
	if rec.done != 1 || rec.err != nil || rec.stats.Files != 2 {
		t.Errorf("indexing heard %d ends, %v, %+v", rec.done, rec.err, rec.stats)
	}
	store, th, err := w.FindThread(ThreadNew)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := w.Prepare(ctx, Question{Text: "how is a Discount taken off a price?", File: "shop/price.go", Line: 4})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.Run(ctx, retrieval(), Turn{Store: store, Thread: th}, agent.Events{})
	if err != nil || ans.SaveErr != nil {
		t.Fatal(err, ans.SaveErr)
	}
	if len(ans.Result.Citations) == 0 || ans.Result.Thread != th.ID || ans.Result.Notice != "" {
		t.Fatalf("answer %+v", ans.Result)
	}
	abs, err := ans.Index.Abs(ans.Result.Citations[0].Path)
	if err != nil || !strings.HasPrefix(abs, root) {
		t.Errorf("first citation's file %q, %v: not under %s", abs, err, root)
	}
	if _, err := ans.Snapshot.Content(ans.Result.Citations[0].Path); err != nil {
		t.Errorf("cited file not in the answer's snapshot: %v", err)
	}
	saved, err := store.Load(th.ID)
	if err != nil || len(saved.Turns) != 1 || saved.Turns[0].Path != "shop/price.go" || saved.Turns[0].Line != 4 {
		t.Errorf("saved thread %+v, %v", saved, err)
	}
	if _, last, err := w.FindThread(ThreadLast); err != nil || last.ID != th.ID {
		t.Errorf("the last thread is %v, %v; want %s", last, err, th.ID)
	}
	if _, _, err := w.FindThread("0123456789abcdef"); !errors.Is(err, thread.ErrNotFound) {
		t.Errorf("an unknown thread: %v", err)
	}
}

// TestAskFromOutsideTheRoots: a file outside the roots is never read; the
// question is answered without the cursor and the notice says so.
func TestAskFromOutsideTheRoots(t *testing.T) {
	w, _ := openShop(t, Hooks{})
	outside := filepath.Join(t.TempDir(), "lib.go")
	ctx := context.Background()
	a, err := w.Prepare(ctx, Question{Text: "what is a Cart?", File: outside, Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := a.Run(ctx, retrieval(), Turn{}, agent.Events{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Result.Notice, outside+" is outside the workspace roots") || !strings.HasPrefix(ans.Result.Answer, "> askls: ") {
		t.Errorf("notice %q, answer %q", ans.Result.Notice, ans.Result.Answer)
	}
}

// TestBuffersBeforeAndAfterTheOpen: a buffer set before the index opens
// is handed to it when it does; one set afterwards is searchable from the
// generation LastEdit says; a closed one falls back to the disk.
func TestBuffersBeforeAndAfterTheOpen(t *testing.T) {
	root := fixture.Tree(t, shop)
	w := New(Options{Index: index.Options{CacheDir: t.TempDir(), Debounce: time.Millisecond}, Logger: quiet()})
	defer w.Close()
	price := filepath.Join(root, "shop", "price.go")
	w.SetBuffer(price, []byte("package shop\n\n// Markup adds a margin.\nfunc Markup(p int) int { return p * 2 }\n"))
	w.Start(Scope{Roots: []string{root}})
	ctx := context.Background()
	if err := w.Synced(ctx); err != nil {
		t.Fatal(err)
	}
	ix, err := w.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.WaitFor(ctx, w.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if hits, _ := ix.Snapshot().Search(ctx, "Markup margin", 5, index.Filter{}); len(hits) == 0 || hits[0].Path != "shop/price.go" {
		t.Errorf("the buffer set before the open is not searchable: %+v", hits)
	}
	w.SetBuffer(filepath.Join(root, "shop", "cart.go"), []byte("package shop\n\n// Basket is a Cart by another name.\ntype Basket struct{}\n"))
	gen := w.LastEdit()
	if gen == 0 {
		t.Fatal("no generation for an edit")
	}
	if err := ix.WaitFor(ctx, gen); err != nil {
		t.Fatal(err)
	}
	if hits, _ := ix.Snapshot().Search(ctx, "Basket", 5, index.Filter{}); len(hits) == 0 || hits[0].Path != "shop/cart.go" {
		t.Errorf("the edit is not searchable at generation %d: %+v", gen, hits)
	}
	w.CloseBuffer(price)
	if err := ix.WaitFor(ctx, w.LastEdit()); err != nil {
		t.Fatal(err)
	}
	if content, _ := ix.Snapshot().Content("shop/price.go"); !strings.Contains(string(content), "Discount") {
		t.Errorf("a closed buffer is still read: %q", content)
	}
	if st := w.Status(); !st.Ready || st.Error != "" || len(st.Roots) != 1 || w.Notice() != "" {
		t.Errorf("status %+v, notice %q", st, w.Notice())
	}
}

// TestRootsThatCannotBeServed: with SkipRoot, a root that is gone is
// skipped and said; with none left, or none given, Index says why.
func TestRootsThatCannotBeServed(t *testing.T) {
	root := fixture.Tree(t, shop)
	gone := filepath.Join(t.TempDir(), "gone")
	var skipped []string
	var starting [][]string
	w := New(Options{Index: index.Options{CacheDir: t.TempDir()}, Logger: quiet(), Hooks: Hooks{
		SkipRoot: func(r, why string) { skipped = append(skipped, r+": "+why) },
		Starting: func(_ context.Context, roots []string) Indexing { starting = append(starting, roots); return nil },
	}})
	defer w.Close()
	ctx := context.Background()
	w.Start(Scope{Roots: []string{gone, root}})
	if err := w.Synced(ctx); err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != gone+": it does not exist" || len(starting) != 1 || len(starting[0]) != 1 || starting[0][0] != root {
		t.Errorf("skipped %q, started with %q", skipped, starting)
	}
	w.Start(Scope{Roots: []string{gone}})
	if _, err := w.Index(ctx); err == nil || !strings.Contains(err.Error(), "no workspace folder can be served") {
		t.Errorf("only a gone root: %v", err)
	}
	w.Start(Scope{})
	if _, err := w.Index(ctx); !errors.Is(err, ErrNoRoots) {
		t.Errorf("no root: %v", err)
	}
	if w.StartOnce(Scope{Roots: []string{root}}) {
		t.Error("StartOnce started a started workspace")
	}
	if _, err := New(Options{}).Index(ctx); !errors.Is(err, ErrNotStarted) {
		t.Errorf("a workspace never started: %v", err)
	}
}

// TestLocate finds a file by the names a person gives it.
func TestLocate(t *testing.T) {
	w, root := openShop(t, Hooks{})
	ctx := context.Background()
	for _, p := range []string{"shop/price.go", "./shop/price.go", filepath.Join(root, "shop", "price.go")} {
		if rel, content, err := w.Locate(ctx, p); err != nil || rel != "shop/price.go" || !strings.Contains(string(content), "Discount") {
			t.Errorf("Locate(%q) = %q, %v", p, rel, err)
		}
	}
	if _, _, err := w.Locate(ctx, "shop/none.go"); !errors.Is(err, ErrNoSuchFile) {
		t.Errorf("a missing file: %v", err)
	}
}
