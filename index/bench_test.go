package index

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/internal/memtune"
)

// The benchmarks run on the Go standard library, $(go env GOROOT)/src,
// with the index kept in $ASKLS_BENCH_CACHE (default: a folder in the
// temp dir, shared with lsp's benchmarks); the first run builds it.
// ASKLS_BENCH_ROOT=DIR runs them on another tree.
//
//	go test -run '^$' -bench WarmStart -benchtime 10x ./index/

func benchOptions(b *testing.B) Options {
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	// Tuned as the askls commands tune their process.
	opts := Options{CacheDir: cache, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Runtime: memtune.Process}
	if root := os.Getenv("ASKLS_BENCH_ROOT"); root != "" {
		// Another tree (BenchmarkColdSync on a larger one, say).
		opts.Roots = []string{root}
		return opts
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	opts.Roots = []string{filepath.Join(strings.TrimSpace(string(out)), "src")}
	return opts
}

// syncedBenchIndex opens the benchmarks' index with the given debounce (0:
// the default), brings it up to date and closes it when b ends.
func syncedBenchIndex(b *testing.B, debounce time.Duration) *Index {
	opts := benchOptions(b)
	opts.Debounce = debounce
	ix, err := Open(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	return ix
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
		e.Symbols()
	}
	for b.Loop() {
		store.NextSymbolTable(store.NewSymbolTable(nil), files, nil).Build()
	}
}

// BenchmarkUpdateSameContent is Update of net/http/server.go with the
// content the index holds (a save after the edits were indexed, a buffer
// closed unchanged), then WaitFor.
func BenchmarkUpdateSameContent(b *testing.B) {
	ix := syncedBenchIndex(b, 10*time.Millisecond)
	orig, err := ix.Snapshot().Content("net/http/server.go")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := ix.WaitFor(context.Background(), ix.Update("net/http/server.go", orig)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdate is Update of net/http/server.go (3,900 lines) then
// WaitFor its generation, alone ("quiet") and while another file is edited
// 20 times a second ("noise"), with lsp's 10 ms debounce.
func BenchmarkUpdate(b *testing.B) {
	for _, noise := range []bool{false, true} {
		name := "quiet"
		if noise {
			name = "noise"
		}
		b.Run(name, func(b *testing.B) {
			ix := syncedBenchIndex(b, 10*time.Millisecond)
			const target, other = "net/http/server.go", "net/http/request.go"
			orig, err := ix.Snapshot().Content(target)
			if err != nil {
				b.Fatal(err)
			}
			otherText, err := ix.Snapshot().Content(other)
			if err != nil {
				b.Fatal(err)
			}
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				if !noise {
					return
				}
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
				for v := 0; ; v++ {
					select {
					case <-stop:
						return
					case <-tick.C:
					}
					ix.Update(other, append([]byte(fmt.Sprintf("// noise %d\n", v)), otherText...))
				}
			}()
			var ds []time.Duration
			i := 0
			for b.Loop() {
				i++
				t0 := time.Now()
				gen := ix.Update(target, append([]byte(fmt.Sprintf("// zqxalone%d guesses\n", i)), orig...))
				if err := ix.WaitFor(context.Background(), gen); err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
			}
			close(stop)
			<-done
			slices.Sort(ds)
			b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(ds[(len(ds)-1)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkWalk is the walk of a warm start alone: listing the tree's
// files with the ignore rules applied (no manifest, no bleve).
func BenchmarkWalk(b *testing.B) {
	opts := benchOptions(b)
	dir := opts.Roots[0]
	files := 0
	for b.Loop() {
		res, err := walk.Walk(context.Background(), walk.Root{Abs: dir, Real: dir, Ignore: walk.NewIgnorer(dir, nil, "")},
			walk.Options{MaxFileBytes: defaultMaxFileBytes})
		if err != nil {
			b.Fatal(err)
		}
		files = len(res.Files())
	}
	b.ReportMetric(float64(files), "files")
}
