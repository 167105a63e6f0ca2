package index

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The benchmarks run on the Go standard library, $(go env GOROOT)/src,
// with the index kept in $ASKLS_BENCH_CACHE (default: a folder in the
// temp dir, shared with lsp's benchmarks); the first run builds it.
//
//	go test -run '^$' -bench WarmStart -benchtime 10x ./index/

func benchOptions(b *testing.B) Options {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	return Options{Roots: []string{filepath.Join(strings.TrimSpace(string(out)), "src")}, CacheDir: cache,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// BenchmarkWarmStart is Open + Sync of an index with nothing changed, then
// Close (not timed).
func BenchmarkWarmStart(b *testing.B) {
	opts := benchOptions(b)
	ix, err := Open(context.Background(), opts) // make sure it exists
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	ix.Close()
	var total time.Duration
	for b.Loop() {
		t0 := time.Now()
		ix, err := Open(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
		b.StopTimer()
		ix.Close()
		b.StartTimer()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "warm-s")
}

// BenchmarkSymbolTable is the build of the symbol table of the whole tree
// (done once per start, in the background, and after 256 changed files).
func BenchmarkSymbolTable(b *testing.B) {
	ix, err := Open(context.Background(), benchOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	files := ix.Snapshot().st.files
	for _, e := range files {
		e.symbols()
	}
	for b.Loop() {
		(&symBase{files: files}).build()
	}
}
