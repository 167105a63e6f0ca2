package index

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
	"github.com/blevesearch/bleve/v2"
)

func TestUnwritableCacheFolderFallsBackToATemporaryIndex(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	// A cache folder that cannot be made (a file is in the way; chmod
	// does not stop root, which CI runs as).
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, filepath.Join(file, "cache"))
	tmp := f.ix.roots[0].cache
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("search in the temporary index: %v", hits)
	}
	if log := f.log.String(); !strings.Contains(log, "the cache folder cannot be written") || !strings.Contains(log, "using a temporary index") {
		t.Errorf("log does not say why: %s", log)
	}
	f.ix.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary index %s left behind: %v", tmp, err)
	}

}

// TestCacheInUseGivesASecondPersistedIndex: while one askls holds a root's
// index (the server), another (the command line) uses a second persisted
// index, built once and warm on its next run; a third at the same time
// works in a temporary index. Each says so in the log.
func TestCacheInUseGivesASecondPersistedIndex(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	cache := t.TempDir()
	server := openFixture(t, root, cache)
	defer server.ix.Close()

	cli := openFixture(t, root, cache)
	if log := cli.log.String(); !strings.Contains(log, "in use by another askls") || !strings.Contains(log, "second persisted index") {
		t.Errorf("second open: %s", log)
	}
	if got, want := cli.ix.roots[0].cache, server.ix.roots[0].cache+"-2"; got != want || cli.ix.roots[0].temp {
		t.Errorf("second open uses %s (temporary %v), want %s", got, cli.ix.roots[0].temp, want)
	}
	if cli.stats.Indexed == 0 {
		t.Errorf("first run in the second index indexed nothing: %+v", cli.stats)
	}
	if hits := search(t, cli.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("search in the second index: %v", hits)
	}
	cli.ix.Close()

	again := openFixture(t, root, cache)
	defer again.ix.Close()
	if again.stats.Indexed != 0 || again.stats.Unchanged != again.stats.Files {
		t.Errorf("second run in the second index is not warm: %+v", again.stats)
	}

	// A third askls at once gets a persisted copy of its own too, warm on
	// its next run: it used to work in a temporary index, rebuilding the
	// whole tree every run.
	third := openFixture(t, root, cache)
	if got, want := third.ix.roots[0].cache, server.ix.roots[0].cache+"-3"; got != want || third.ix.roots[0].temp {
		t.Errorf("third open uses %s (temporary %v), want %s", got, third.ix.roots[0].temp, want)
	}
	third.ix.Close()
	third = openFixture(t, root, cache)
	defer third.ix.Close()
	if third.stats.Indexed != 0 || third.stats.Unchanged != third.stats.Files {
		t.Errorf("second run in the third index is not warm: %+v", third.stats)
	}
	fourth := openFixture(t, root, cache)
	defer fourth.ix.Close()
	if got, want := fourth.ix.roots[0].cache, server.ix.roots[0].cache+"-4"; got != want {
		t.Errorf("fourth open uses %s, want %s", got, want)
	}
	fifth := openFixture(t, root, cache)
	defer fifth.ix.Close()
	if log := fifth.log.String(); !strings.Contains(log, "3 other copies are in use") || !strings.Contains(log, "using a temporary index") || !fifth.ix.roots[0].temp {
		t.Errorf("fifth open: %s", log)
	}
}

// TestFirstBuildInMemoryIndexFinishes: when the index could not be
// created on disk it lives in memory (Open's fallback); a first build in
// it finishes (settle has nothing to merge there) and is searchable.
func TestFirstBuildInMemoryIndexFinishes(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	ix, err := Open(context.Background(), Options{Roots: []string{root}, CacheDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	r := ix.roots[0]
	r.bi.Close()
	r.bi, _ = bleve.NewMemOnly(store.NewMapping()) // what Open falls back to
	done := make(chan error, 1)
	go func() { _, err := ix.Sync(context.Background()); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the first build into an in-memory index did not finish")
	}
	if hits := search(t, ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("search in the in-memory index: %v", hits)
	}
}
