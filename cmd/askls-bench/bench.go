package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
)

// benchFigures is one system's measurements.
type benchFigures struct {
	System      string  `json:"system"`
	ColdS       float64 `json:"cold_index_s"`
	ColdPeakMB  float64 `json:"cold_peak_rss_mb"`
	WarmS       float64 `json:"warm_start_s,omitempty"`
	UpdateP50   float64 `json:"update_p50_ms"`
	UpdateP99   float64 `json:"update_p99_ms"`
	QueryP50    float64 `json:"query_p50_ms"`
	QueryP99    float64 `json:"query_p99_ms"`
	IdleHeapMB  float64 `json:"idle_heap_mb,omitempty"`
	IdleRSSMB   float64 `json:"idle_rss_mb,omitempty"`
	Files       int     `json:"files"`
	Chunks      int     `json:"chunks"`
	UpdateLines int     `json:"update_file_lines"`
}

func runBench(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var rf rootFlags
	rf.register(fs)
	baseline := fs.Bool("baseline", false, "also measure bleve's default mapping (and ripgrep when installed) in the same run")
	updates := fs.Int("updates", 50, "one-file updates to time")
	rounds := fs.Int("rounds", 5, "rounds over the query mix")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	ask := fs.Bool("ask", false, "also time whole answers through a running Ollama (--model, --ollama-host): the model's reported time beside askls's own cost per hop")
	askOnly := fs.Bool("ask-only", false, "only the --ask round trip, on the persisted index of --root (no cold build)")
	askRounds := fs.Int("ask-rounds", 3, "rounds over the questions for --ask")
	var af modelFlags
	af.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *askOnly {
		ix, err := openWorkspace(ctx, rf)
		if err != nil {
			return err
		}
		defer ix.Close()
		f, err := benchAsk(ctx, ix, af.config(), *askRounds)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(os.Stdout).Encode(f)
		}
		printAskBench(os.Stdout, f)
		return nil
	}
	if len(rf.roots) > 1 {
		return usageError("askls bench takes one --root")
	}
	root := "."
	if len(rf.roots) == 1 {
		root = rf.roots[0]
	}
	if _, err := os.Stat(root); err != nil {
		return fmt.Errorf("bench: root %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp("", "askls-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts := index.Options{Roots: []string{root}, CacheDir: filepath.Join(tmp, "cache"), MaxFileBytes: rf.maxFileBytes, Logger: quiet, Runtime: memtune.Process}

	var results []benchFigures
	a := benchFigures{System: "askls"}

	// Cold index.
	resetPeakRSS()
	start := time.Now()
	ix, err := index.Open(ctx, opts)
	if err != nil {
		return err
	}
	if _, err := ix.Sync(ctx); err != nil {
		return err
	}
	a.ColdS = time.Since(start).Seconds()
	a.ColdPeakMB = peakRSSMB()
	st := ix.Stats()
	a.Files, a.Chunks = st.Files, st.Chunks
	if err := ix.Close(); err != nil {
		return err
	}

	// Warm restart.
	start = time.Now()
	ix, err = index.Open(ctx, opts)
	if err != nil {
		return err
	}
	if _, err := ix.Sync(ctx); err != nil {
		return err
	}
	a.WarmS = time.Since(start).Seconds()
	defer ix.Close()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	a.IdleHeapMB = float64(ms.HeapInuse) / (1 << 20)
	a.IdleRSSMB = rssMB()

	// One-file update until searchable.
	upPath, upContent, err := pickUpdateFile(ix.Snapshot(), 1000)
	if err != nil {
		return err
	}
	a.UpdateLines = bytes.Count(upContent, []byte("\n"))
	var upTimes []float64
	for i := 0; i < *updates; i++ {
		marker := fmt.Sprintf("askls_bench_marker_%d", i)
		content := append(bytes.Clone(upContent), []byte("\n// "+marker+"\n")...)
		time.Sleep(60 * time.Millisecond) // past the debounce: measures the index, not the typing pause
		t := time.Now()
		gen := ix.Update(upPath, content)
		if err := ix.WaitFor(ctx, gen); err != nil {
			return err
		}
		hits, err := ix.Snapshot().Search(ctx, marker, 1, index.Filter{})
		if err != nil || len(hits) == 0 {
			return fmt.Errorf("bench: update %d not searchable: %v", i, err)
		}
		upTimes = append(upTimes, ms1(time.Since(t)))
	}
	ix.Release(upPath)
	a.UpdateP50, a.UpdateP99 = percentile(upTimes, 50), percentile(upTimes, 99)

	// Queries.
	var qTimes []float64
	snap := ix.Snapshot()
	for r := 0; r < *rounds; r++ {
		for _, q := range index.QueryMix {
			t := time.Now()
			if _, err := snap.Search(ctx, q, 10, index.Filter{}); err != nil {
				return fmt.Errorf("bench: query %q: %w", q, err)
			}
			qTimes = append(qTimes, ms1(time.Since(t)))
		}
	}
	a.QueryP50, a.QueryP99 = percentile(qTimes, 50), percentile(qTimes, 99)
	results = append(results, a)

	var askFig *askFigures
	if *ask {
		f, err := benchAsk(ctx, ix, af.config(), *askRounds)
		if err != nil {
			return err
		}
		askFig = &f
	}

	if *baseline {
		b := benchFigures{System: "bleve-default"}
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS()
		start := time.Now()
		bl, bs, err := index.BuildBaseline(ctx, root, tmp, index.BaselineOptions{MaxFileBytes: rf.maxFileBytes, Tests: true})
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		defer bl.Close()
		b.ColdS = time.Since(start).Seconds()
		b.ColdPeakMB = peakRSSMB()
		b.Files, b.Chunks = bs.Files, bs.Chunks
		var bu []float64
		for i := 0; i < *updates; i++ {
			marker := fmt.Sprintf("askls_bench_marker_%d", i)
			t := time.Now()
			if err := bl.Update(upPath, append(bytes.Clone(upContent), []byte("\n// "+marker+"\n")...)); err != nil {
				return err
			}
			hits, err := bl.Search(ctx, marker, 1)
			if err != nil || len(hits) == 0 {
				return fmt.Errorf("baseline: update %d not searchable: %v", i, err)
			}
			bu = append(bu, ms1(time.Since(t)))
		}
		b.UpdateP50, b.UpdateP99 = percentile(bu, 50), percentile(bu, 99)
		b.UpdateLines = a.UpdateLines
		var bq []float64
		for r := 0; r < *rounds; r++ {
			for _, q := range index.QueryMix {
				t := time.Now()
				if _, err := bl.Search(ctx, q, 10); err != nil {
					return err
				}
				bq = append(bq, ms1(time.Since(t)))
			}
		}
		b.QueryP50, b.QueryP99 = percentile(bq, 50), percentile(bq, 99)
		results = append(results, b)
		if rg, err := exec.LookPath("rg"); err == nil {
			results = append(results, benchRipgrep(ctx, rg, root))
		}
	}

	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if askFig != nil {
			return enc.Encode(map[string]any{"index": results, "ask": askFig})
		}
		return enc.Encode(results)
	}
	printBench(os.Stdout, results)
	if askFig != nil {
		printAskBench(os.Stdout, *askFig)
	}
	return nil
}

// benchRipgrep times ripgrep over the tree for the identifier queries.
func benchRipgrep(ctx context.Context, rg, root string) benchFigures {
	f := benchFigures{System: "ripgrep"}
	var ts []float64
	for _, q := range index.QueryMix[:10] {
		t := time.Now()
		exec.CommandContext(ctx, rg, "-l", "-F", q, root).Run()
		ts = append(ts, ms1(time.Since(t)))
	}
	f.QueryP50, f.QueryP99 = percentile(ts, 50), percentile(ts, 99)
	return f
}

// pickUpdateFile finds the Go file whose length is closest to lines.
func pickUpdateFile(snap *index.Snapshot, lines int) (string, []byte, error) {
	files, err := snap.Files("*.go")
	if err != nil || len(files) == 0 {
		files, _ = snap.Files("")
	}
	best, bestDiff := "", -1
	var bestContent []byte
	for _, p := range files {
		c, err := snap.Content(p)
		if err != nil {
			continue
		}
		d := bytes.Count(c, []byte("\n")) - lines
		if d < 0 {
			d = -d
		}
		if bestDiff < 0 || d < bestDiff {
			best, bestDiff, bestContent = p, d, c
		}
	}
	if best == "" {
		return "", nil, fmt.Errorf("bench: no file to update")
	}
	return best, bestContent, nil
}

func ms1(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	i := int(float64(len(ys)-1) * p / 100)
	return ys[i]
}

// resetPeakRSS resets the kernel's peak-RSS mark for this process (Linux).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func peakRSSMB() float64 { return procStatusMB("VmHWM:") }
func rssMB() float64     { return procStatusMB("VmRSS:") }

func procStatusMB(key string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

func printBench(w io.Writer, rs []benchFigures) {
	fmt.Fprintf(w, "cores: %d (GOMAXPROCS %d)\n", runtime.NumCPU(), runtime.GOMAXPROCS(0))
	a := rs[0]
	fmt.Fprintf(w, "askls: %d files, %d chunks; update file %d lines\n", a.Files, a.Chunks, a.UpdateLines)
	for _, r := range rs[1:] {
		if r.Files > 0 {
			fmt.Fprintf(w, "%s: %d files, %d chunks\n", r.System, r.Files, r.Chunks)
		}
	}
	row := func(name, unit string, get func(benchFigures) float64) {
		fmt.Fprintf(w, "%-28s", name)
		for _, r := range rs {
			if v := get(r); v > 0 {
				fmt.Fprintf(w, " %14s", fmt.Sprintf("%.2f %s", v, unit))
			} else {
				fmt.Fprintf(w, " %14s", "-")
			}
		}
		if len(rs) > 1 && get(rs[1]) > 0 && get(a) > 0 {
			fmt.Fprintf(w, "   askls/%s = %.2f×", rs[1].System, get(a)/get(rs[1]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-28s", "")
	for _, r := range rs {
		fmt.Fprintf(w, " %14s", r.System)
	}
	fmt.Fprintln(w)
	row("cold index", "s", func(r benchFigures) float64 { return r.ColdS })
	row("cold index peak RSS", "MB", func(r benchFigures) float64 { return r.ColdPeakMB })
	row("warm start (no change)", "s", func(r benchFigures) float64 { return r.WarmS })
	row("update→searchable p50", "ms", func(r benchFigures) float64 { return r.UpdateP50 })
	row("update→searchable p99", "ms", func(r benchFigures) float64 { return r.UpdateP99 })
	row("query p50", "ms", func(r benchFigures) float64 { return r.QueryP50 })
	row("query p99", "ms", func(r benchFigures) float64 { return r.QueryP99 })
	row("idle heap in use", "MB", func(r benchFigures) float64 { return r.IdleHeapMB })
	row("idle RSS", "MB", func(r benchFigures) float64 { return r.IdleRSSMB })
}
