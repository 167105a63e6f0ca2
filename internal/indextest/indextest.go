// Package indextest builds real indexes over txtar fixtures for the tests
// of the packages above index (agent, agent/tools). Each call opens its
// own index in temporary folders, closed when the test ends; the package
// keeps no state and is safe for concurrent use.
package indextest

import (
	"context"
	"testing"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/fixture"
)

// Snapshot extracts the txtar archive at path (relative to the test's
// package folder), indexes it with the default options, syncs it and
// returns a snapshot.
func Snapshot(t testing.TB, path string) *index.Snapshot {
	t.Helper()
	dir := fixture.Write(t, path)
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{dir}, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("index.Open: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	return ix.Snapshot()
}
