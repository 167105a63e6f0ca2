//go:build unix

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askls/askls/agent/retrieval"
	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/ollama/ollama/api"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// benchQueries are questions a model would search for in the Go tree.
var benchQueries = []string{
	"content type sniffing DetectContentType",
	"http server graceful shutdown",
	"json decoder unmarshal struct field tags",
	"gzip writer flush compression level",
	"time parse layout reference time",
	"context cancel deadline propagation",
	"bufio scanner max token size",
	"tls handshake client certificate verify",
}

// goroot opens the index of $(go env GOROOT)/src, built once and kept in
// the askls cache ($ASKLS_CACHE_DIR or the user cache dir), so only the
// first run pays for the cold build. It skips when the index cannot be
// built.
func goroot(b *testing.B) *index.Snapshot {
	b.Helper()
	index.TuneProcessSearch() // as the askls command does
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{src}, CacheDir: os.Getenv("ASKLS_CACHE_DIR")}) // the commands read it; the index does not
	if err != nil {
		b.Skipf("index not available: %v", err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx); err != nil {
		b.Skipf("index not built: %v", err)
	}
	return ix.Snapshot()
}

// BenchmarkHop measures the engine's own cost of one agent hop on the Go
// standard library, model time excluded: the tools a model typically calls
// in one turn (search_code, outline and read_file of the best hit, grep in
// its folder), assembling the next /api/chat request (JSON of the whole
// conversation), and checking an answer that cites every piece of
// evidence. p50 and p99 per hop are reported as metrics.
func BenchmarkHop(b *testing.B) {
	snap := goroot(b)
	ctx := context.Background()
	var hops []time.Duration
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		reg := citations.NewRegistry()
		tb := tools.NewBox(snap, reg)
		q := benchQueries[i%len(benchQueries)]
		msgs := []model.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: q}}
		out, _, err := tb.Run(ctx, "search_code", tools.Args{"query": q})
		if err != nil {
			b.Fatal(err)
		}
		msgs = append(msgs, model.Message{Role: "tool", ToolName: "search_code", Content: out})
		if ev, ok := reg.Get(1); ok {
			o, _, _ := tb.Run(ctx, "outline", tools.Args{"path": ev.Path})
			r, _, _ := tb.Run(ctx, "read_file", tools.Args{"path": ev.Path, "start_line": float64(ev.Start), "end_line": float64(ev.Start + 60)})
			g, _, _ := tb.Run(ctx, "grep", tools.Args{"pattern": `func \(`, "path_glob": filepath.ToSlash(filepath.Dir(ev.Path)) + "/*.go"})
			msgs = append(msgs, model.Message{Role: "tool", ToolName: "outline", Content: o},
				model.Message{Role: "tool", ToolName: "read_file", Content: r},
				model.Message{Role: "tool", ToolName: "grep", Content: g})
		}
		if _, err := json.Marshal(ollamaRequest(msgs)); err != nil {
			b.Fatal(err)
		}
		var answer strings.Builder
		for id := 1; id <= reg.Len(); id++ {
			fmt.Fprintf(&answer, "Claim %d [%d]. ", id, id)
		}
		_, cits, _ := citations.Validate(answer.String(), reg, tb.Content)
		if len(cits) != reg.Len() {
			b.Fatalf("%d citations of %d evidence", len(cits), reg.Len())
		}
		hops = append(hops, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, hops)
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user+system CPU time: on a shared, loaded
// machine it says what a hop costs better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHopBaselineWalkGrep is the baseline in the same run: what a
// tool without an index pays for one grep over the Go tree (walk, read
// every .go file, run the regexp), the cheapest thing an agent could do
// instead of search_code.
func BenchmarkHopBaselineWalkGrep(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	re := regexp.MustCompile(`DetectContentType`)
	var hops []time.Duration
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		n := 0
		_ = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil && re.Match(data) {
				n++
			}
			return nil
		})
		if n == 0 {
			b.Fatal("no match")
		}
		hops = append(hops, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, hops)
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func reportPercentiles(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	p := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.5), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}

// BenchmarkRetrieval is a retrieval-mode Ask (no model) on the Go tree
// for the questions of testdata/eval/goroot.jsonl in turn: search,
// definitions, the choice of units and spans, call sites and the checked
// answer. p50 and p99 per answer are reported as metrics.
func BenchmarkRetrieval(b *testing.B) {
	snap := goroot(b)
	qs := gorootQuestions(b)
	a := New(Config{NoModel: true})
	ctx := context.Background()
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := a.Ask(ctx, snap, Question{Text: qs[i%len(qs)]}, Events{})
		if err != nil || len(res.Citations) == 0 {
			b.Fatalf("ask %q: %v %+v", qs[i%len(qs)], err, res)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, ds)
}

// BenchmarkRetrievalSearchAlone is the baseline of BenchmarkRetrieval in
// the same run: the index search alone (tests left out, retrieval.Pool
// hits) for the same questions. The difference is what the answer adds.
func BenchmarkRetrievalSearchAlone(b *testing.B) {
	snap := goroot(b)
	qs := gorootQuestions(b)
	ctx := context.Background()
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := snap.Search(ctx, qs[i%len(qs)], retrieval.Pool, index.Filter{NoTests: true}); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, ds)
}

// gorootQuestions are the questions of testdata/eval/goroot.jsonl.
func gorootQuestions(b *testing.B) []string {
	data, err := os.ReadFile("../testdata/eval/goroot.jsonl")
	if err != nil {
		b.Skip(err)
	}
	var qs []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var q struct{ Question string }
		if json.Unmarshal([]byte(line), &q) == nil && q.Question != "" {
			qs = append(qs, q.Question)
		}
	}
	return qs
}

// BenchmarkFindReferences is what textDocument/references does on
// context.WithCancel's declaration in the Go tree: every occurrence in
// code, tests included. p50 and p99 per call are reported as metrics.
func BenchmarkFindReferences(b *testing.B) {
	snap := goroot(b)
	ctx := context.Background()
	var ds []time.Duration
	n := 0
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		q := tools.RefQueryAt(snap, "WithCancel", "context/context.go", 240)
		q.Tests, q.Skip = true, nil
		refs, err := tools.FindReferences(ctx, snap, q)
		if err != nil || len(refs.Sites) == 0 {
			b.Fatalf("references: %v, %d sites", err, len(refs.Sites))
		}
		n = len(refs.Sites)
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(n), "sites")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(ds)), "cpu-ms/op")
	reportPercentiles(b, ds)
}

// BenchmarkFindImplementations is what textDocument/implementation does
// on six interfaces of the Go tree in turn (io.Reader, context.Context,
// net.Conn, http.Handler, sort.Interface, hash.Hash): the types whose
// methods cover each one's method set, and the structs that embed it or
// them. p50 and p99 per call are reported as metrics.
func BenchmarkFindImplementations(b *testing.B) {
	snap := goroot(b)
	ctx := context.Background()
	var defs []index.Symbol
	for _, q := range [][2]string{{"io.Reader", "io/io.go"}, {"context.Context", "context/context.go"}, {"net.Conn", "net/net.go"},
		{"http.Handler", "net/http/server.go"}, {"sort.Interface", "sort/sort.go"}, {"hash.Hash", "hash/hash.go"}} {
		def, ok := tools.ImplementableAt(snap, q[0], q[1], 0)
		if !ok {
			b.Fatalf("no interface %s", q[0])
		}
		defs = append(defs, def)
	}
	var ds []time.Duration
	types := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		ims, err := tools.FindImplementations(ctx, snap, defs[i%len(defs)], true)
		if err != nil || len(ims.Types) == 0 {
			b.Fatalf("%s: %v, %d types", defs[i%len(defs)].Name, err, len(ims.Types))
		}
		types += len(ims.Types)
		ds = append(ds, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(types)/float64(len(ds)), "types/op")
	reportPercentiles(b, ds)
}

// ollamaRequest is the /api/chat request of a hop as the Ollama provider
// writes it (package model): the conversation (tool results, no calls)
// and the tools' schemas.
func ollamaRequest(msgs []model.Message) *api.ChatRequest {
	req := &api.ChatRequest{Model: "m", Options: map[string]any{"num_ctx": 16384}}
	for _, m := range msgs {
		req.Messages = append(req.Messages, api.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID})
	}
	for _, t := range tools.Specs() {
		props := api.NewToolPropertiesMap()
		var required []string
		for _, p := range t.Params {
			props.Set(p.Name, api.ToolProperty{Type: api.PropertyType{p.Type}, Description: p.Description})
			if p.Required {
				required = append(required, p.Name)
			}
		}
		req.Tools = append(req.Tools, api.Tool{Type: "function", Function: api.ToolFunction{Name: t.Name, Description: t.Description,
			Parameters: api.ToolFunctionParameters{Type: "object", Required: required, Properties: props}}})
	}
	return req
}
