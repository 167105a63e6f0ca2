package benchkit

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
)

// The benchmarks run on the Go standard library, $(go env GOROOT)/src, or
// on ASKLS_BENCH_ROOT; the index is kept in $ASKLS_BENCH_CACHE (default: a
// folder in the temp dir, shared with the index and lsp benchmarks) and
// built on the first run.

// benchRoot is the tree the benchmarks run on.
func benchRoot(b *testing.B) string {
	if root := os.Getenv("ASKLS_BENCH_ROOT"); root != "" {
		return root
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// BenchmarkSearch times each query of QueryMix at limit 10:
//
//	go test -run '^$' -bench Search -benchtime 200x ./internal/benchkit/
func BenchmarkSearch(b *testing.B) {
	index.TuneProcessSearch() // as the askls commands do
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	ix, err := index.Open(context.Background(), index.Options{
		Roots: []string{benchRoot(b)}, CacheDir: cache, Runtime: memtune.Process,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	snap := ix.Snapshot()
	for i, q := range QueryMix {
		b.Run(fmt.Sprintf("%02d", i), func(b *testing.B) {
			for b.Loop() {
				if _, err := snap.Search(context.Background(), q, 10, index.Filter{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
