package index

import (
	"context"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// openWalkingAtOpen opens root's index with Options.WalkAtOpen.
func openWalkingAtOpen(t *testing.T, root, cache string) *Index {
	t.Helper()
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: cache, WalkAtOpen: true,
		Logger: slog.New(slog.NewTextHandler(&logBuffer{}, nil)), Debounce: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestWalkAtOpenFindsWhatASyncWalks: the walk Open starts
// (Options.WalkAtOpen) is the first sync's: the same files, ignore rules
// and skips, on a cold and on a warm start; the next sync walks again.
func TestWalkAtOpenFindsWhatASyncWalks(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	plain := openFixture(t, root, t.TempDir())
	want, err := plain.ix.Snapshot().Files("")
	plain.ix.Close()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	for _, start := range []string{"cold", "warm"} {
		ix := openWalkingAtOpen(t, root, cache)
		st, err := ix.Sync(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := ix.Snapshot().Files("")
		if !slices.Equal(got, want) {
			t.Errorf("%s: Files() = %q, want %q", start, got, want)
		}
		if !maps.Equal(st.Skipped, plain.stats.Skipped) {
			t.Errorf("%s: skipped %v, want %v", start, st.Skipped, plain.stats.Skipped)
		}
		if start == "warm" && (st.Unchanged != len(want) || st.Indexed != 0) {
			t.Errorf("warm: %d unchanged, %d indexed; want %d, 0", st.Unchanged, st.Indexed, len(want))
		}
		if start == "warm" {
			// A later sync walks again: it sees a file added since.
			if err := os.WriteFile(filepath.Join(root, "added.go"), []byte("package main\n\nfunc Added() {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if st, err := ix.Sync(context.Background()); err != nil || st.Indexed != 1 {
				t.Errorf("second sync: %+v, %v; want the added file indexed", st, err)
			}
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWalkAtOpenWithoutSync: Close ends a walk no Sync took.
func TestWalkAtOpenWithoutSync(t *testing.T) {
	ix := openWalkingAtOpen(t, writeTxtar(t, "workspace.txtar"), t.TempDir())
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if ix.pre.Load() != nil {
		t.Error("the walk Open started is still held after Close")
	}
}

// TestWalkAtOpenSyncCancelled: a first sync cancelled while it waits for
// the walk Open started returns the context's error.
func TestWalkAtOpenSyncCancelled(t *testing.T) {
	ix := openWalkingAtOpen(t, writeTxtar(t, "workspace.txtar"), t.TempDir())
	defer ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Sync(ctx); err == nil {
		t.Error("a sync with its context cancelled succeeded")
	}
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Errorf("the sync after it: %v", err)
	}
}
