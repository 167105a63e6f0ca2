package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
)

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

// BenchmarkSearchCodeGOROOT measures an MCP search_code call on a warm
// index of $(go env GOROOT)/src (kept in the askls cache: only the first
// run builds it). "handler" is the time inside the server (the tool
// handler: arguments, search, evidence text); "session" adds the SDK's
// JSON-RPC over its in-memory transport, as a client sees it.
func BenchmarkSearchCodeGOROOT(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	srv := New(Options{Roots: []string{src}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Agent: agent.Config{NoModel: true}})
	b.Cleanup(srv.Close)
	ctx := context.Background()
	if _, err := srv.indexFor(ctx); err != nil {
		b.Skipf("index: %v", err)
	}
	b.Run("search", func(b *testing.B) {
		// The index's search alone, for the split of "handler".
		ix, _ := srv.indexFor(ctx)
		var ds []time.Duration
		for i := 0; b.Loop(); i++ {
			t0 := time.Now()
			if _, err := ix.Snapshot().Search(ctx, benchQueries[i%len(benchQueries)], 8, index.Filter{}); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		percentiles(b, ds)
	})
	b.Run("handler", func(b *testing.B) {
		h := srv.toolHandler("search_code")
		var ds []time.Duration
		for i := 0; b.Loop(); i++ {
			raw, _ := json.Marshal(map[string]any{"query": benchQueries[i%len(benchQueries)]})
			t0 := time.Now()
			res, err := h(ctx, &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: "search_code", Arguments: raw}})
			ds = append(ds, time.Since(t0))
			if err != nil || res.IsError {
				b.Fatalf("%v %v", err, res)
			}
		}
		percentiles(b, ds)
	})
	b.Run("session", func(b *testing.B) {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st); err != nil {
			b.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		var ds []time.Duration
		for i := 0; b.Loop(); i++ {
			t0 := time.Now()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": benchQueries[i%len(benchQueries)]}})
			ds = append(ds, time.Since(t0))
			if err != nil || res.IsError {
				b.Fatalf("%v %v", err, res)
			}
		}
		percentiles(b, ds)
	})
}

func percentiles(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	p := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.5), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}
