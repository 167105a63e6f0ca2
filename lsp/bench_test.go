package lsp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
)

// The benchmarks drive the server through the protocol (net.Pipe) on the
// Go standard library, $(go env GOROOT)/src. The index persists in
// $ASKLS_BENCH_CACHE (default: a folder in the temp dir), so only the
// first run pays for the cold index. Run:
//
//	go test -run '^$' -bench . -benchtime 200x ./lsp/

// goroot is the tree the benchmarks run on. It also sets the process's
// search tuning, as the askls command does.
func goroot(b *testing.B) string {
	index.TuneProcessSearch()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

func benchEditor(b *testing.B) *fakeEditor {
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	e := startEditorAt(b, goroot(b), editorSetup{
		opts:     Options{CacheDir: cache, Agent: agent.Config{NoModel: true}, Runtime: memtune.Process},
		patience: 15 * time.Minute, // cold: the whole tree
	})
	e.waitIndexed()
	return e
}

// percentiles reports p50 and p99 of ds (in ms) as benchmark metrics.
func percentiles(b *testing.B, name string, ds []time.Duration) (p50, p99 float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) float64 {
		i := int(q * float64(len(ds)-1))
		return float64(ds[i].Microseconds()) / 1000
	}
	p50, p99 = at(0.50), at(0.99)
	b.ReportMetric(p50, name+"-p50-ms")
	b.ReportMetric(p99, name+"-p99-ms")
	return p50, p99
}

// BenchmarkAskRetrieval is an askls/ask round trip in retrieval mode.
func BenchmarkAskRetrieval(b *testing.B) {
	e := benchEditor(b)
	var ds []time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		res, err := e.ask(map[string]any{"question": "where does the http server guess the content type"})
		if err != nil || len(res.Citations) == 0 {
			b.Fatalf("ask: %v %+v", err, res)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "ask", ds)
}

// BenchmarkEditToSearchable measures, while other edits arrive at 20 a
// second, the time from a didChange to an askls/ask reply whose search
// found the edited text. The baseline is the same ask right after, with no
// edit pending; the ratio is the cost of making an edit searchable.
func BenchmarkEditToSearchable(b *testing.B) {
	e := benchEditor(b)
	target := "net/http/server.go"
	e.open(target, e.read(target))
	noise := "net/http/request.go"
	e.open(noise, e.read(noise))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // background edits, 20 per second
		defer wg.Done()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for v := 2; ; v++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			e.change(noise, v, protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, fmt.Sprintf("// noise %d\n", v))
		}
	}()

	var edit, base []time.Duration
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		token := "zqxmarker" + letters(i)                          // letters only: one token
		replace := protocol.Range{End: protocol.Position{Line: 1}} // the previous marker line
		if i == 1 {
			replace = protocol.Range{}
		}
		t0 := time.Now()
		e.change(target, i+1, replace, "// "+token+" guesses\n")
		res, err := e.ask(map[string]any{"question": token})
		if err != nil {
			b.Fatal(err)
		}
		edit = append(edit, time.Since(t0))
		if _, ok := e.citationIn(res, target); !ok {
			b.Fatalf("edit %d not found by the ask: %s", i, mustJSON(res.Citations))
		}
		t1 := time.Now()
		if _, err := e.ask(map[string]any{"question": token}); err != nil {
			b.Fatal(err)
		}
		base = append(base, time.Since(t1))
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	_, p99 := percentiles(b, "edit", edit)
	_, bp99 := percentiles(b, "baseline", base)
	if bp99 > 0 {
		b.ReportMetric(p99/bp99, "p99-ratio")
	}
}

// BenchmarkWorkspaceSymbol is workspace/symbol over the whole tree.
func BenchmarkWorkspaceSymbol(b *testing.B) {
	e := benchEditor(b)
	queries := []string{"ServeHTTP", "Reader", "NewRequest", "parse", "Marshal", "ctx", "Do"}
	var ds []time.Duration
	b.ResetTimer()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		t0 := time.Now()
		syms := e.symbols(q)
		ds = append(ds, time.Since(t0))
		if len(syms) == 0 {
			b.Fatalf("no symbols for %q", q)
		}
	}
	b.StopTimer()
	percentiles(b, "symbol", ds)
}

// BenchmarkIndexUpdateAlone is the baseline for BenchmarkEditToSearchable:
// the index by itself, Update of the same file then WaitFor its
// generation, with no LSP, no ask.
func BenchmarkIndexUpdateAlone(b *testing.B) {
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	ix, err := index.Open(b.Context(), index.Options{Roots: []string{goroot(b)}, CacheDir: cache, Debounce: editDebounce, Runtime: memtune.Process})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(b.Context()); err != nil {
		b.Fatal(err)
	}
	const target = "net/http/server.go"
	orig, err := ix.Snapshot().Content(target)
	if err != nil {
		b.Fatal(err)
	}
	var ds []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		t0 := time.Now()
		gen := ix.Update(target, append([]byte(fmt.Sprintf("// zqxalone%d guesses\n", i)), orig...))
		if err := ix.WaitFor(b.Context(), gen); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "update", ds)
}

// letters spells i in base 26 with a..z.
func letters(i int) string {
	var b []byte
	for ; i > 0; i /= 26 {
		b = append([]byte{byte('a' + i%26)}, b...)
	}
	return string(b)
}

// BenchmarkSymbolsAlone is the baseline for BenchmarkWorkspaceSymbol: the
// index's Snapshot.Symbols with the same queries, no LSP.
func BenchmarkSymbolsAlone(b *testing.B) {
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	ix, err := index.Open(b.Context(), index.Options{Roots: []string{goroot(b)}, CacheDir: cache, Runtime: memtune.Process})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(b.Context()); err != nil {
		b.Fatal(err)
	}
	queries := []string{"ServeHTTP", "Reader", "NewRequest", "parse", "Marshal", "ctx", "Do"}
	var ds []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		t0 := time.Now()
		if len(ix.Snapshot().Symbols(q, maxSymbols)) == 0 {
			b.Fatalf("no symbols for %q", q)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "symbols", ds)
}

// BenchmarkReferences is textDocument/references on context.WithCancel's
// declaration in GOROOT (every occurrence in code, tests included).
func BenchmarkReferences(b *testing.B) {
	e := benchEditor(b)
	uri := e.uri("context/context.go")
	src := e.read("context/context.go")
	line := strings.Count(src[:strings.Index(src, "func WithCancel(")], "\n")
	var ds []time.Duration
	b.ResetTimer()
	for b.Loop() {
		var locs []protocol.Location
		t0 := time.Now()
		err := e.call("textDocument/references", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"position":     map[string]any{"line": line, "character": 6},
			"context":      map[string]any{"includeDeclaration": false},
		}, &locs)
		ds = append(ds, time.Since(t0))
		if err != nil || len(locs) == 0 {
			b.Fatalf("references: %v, %d locations", err, len(locs))
		}
		b.ReportMetric(float64(len(locs)), "locations")
	}
	b.StopTimer()
	percentiles(b, "references", ds)
}
