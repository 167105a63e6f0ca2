package main

import (
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
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/benchkit"
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

// benchParams are runBench's flags.
type benchParams struct {
	rf        rootFlags
	af        modelFlags
	baseline  bool
	updates   int
	rounds    int
	asJSON    bool
	ask       bool
	askOnly   bool
	askRounds int
	warm      bool
	cores     string
}

func parseBench(args []string) (benchParams, error) {
	var p benchParams
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	p.rf.register(fs)
	fs.BoolVar(&p.baseline, "baseline", false, "also measure bleve's default mapping (and ripgrep when installed) in the same run")
	fs.IntVar(&p.updates, "updates", 50, "one-file updates to time")
	fs.IntVar(&p.rounds, "rounds", 5, "rounds over the query mix")
	fs.BoolVar(&p.asJSON, "json", false, "print the figures as JSON")
	fs.BoolVar(&p.ask, "ask", false, "also time whole answers through a running Ollama (--model, --ollama-host): the model's reported time beside askls's own cost per hop")
	fs.BoolVar(&p.askOnly, "ask-only", false, "only the --ask round trip, on the persisted index of --root (no cold build)")
	fs.IntVar(&p.askRounds, "ask-rounds", 3, "rounds over the questions for --ask")
	fs.BoolVar(&p.warm, "warm", false, "no cold build: the warm start, idle memory, updates and queries on the persisted index of --root in --cache (built first when missing); for trees whose cold build takes minutes")
	fs.StringVar(&p.cores, "cores", "", "only cold builds, one at each count of `CORES` (GOMAXPROCS, e.g. 1,2,4): the scaling and the serial share it implies")
	p.af.register(fs)
	return p, fs.Parse(args)
}

// runBench measures askls's index on one tree in stages: a cold build, a
// warm start, the idle process, one-file updates and the query mix; then,
// with --baseline, the same on plain bleve (and ripgrep); with --ask,
// whole answers through Ollama. Peak and resident memory are read from
// /proc and are measured on Linux only.
func runBench(ctx context.Context, args []string) error {
	p, err := parseBench(args)
	if err != nil {
		return err
	}
	if p.askOnly {
		return runAskOnly(ctx, p)
	}
	if len(p.rf.Roots) > 1 {
		return usageError("askls-bench bench takes one --root")
	}
	root := "."
	if len(p.rf.Roots) == 1 {
		root = p.rf.Roots[0]
	}
	if _, err := os.Stat(root); err != nil {
		return fmt.Errorf("bench: root %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp("", "askls-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	opts := index.Options{
		Roots: []string{root}, CacheDir: filepath.Join(tmp, "cache"), MaxFileBytes: p.rf.MaxFileBytes,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Runtime: memtune.Process,
	}

	if p.cores != "" {
		cores, err := parseCores(p.cores)
		if err != nil {
			return err
		}
		return benchCores(ctx, opts, tmp, cores, os.Stdout, p.asJSON)
	}
	a := benchFigures{System: "askls"}
	if p.warm {
		if p.baseline || p.ask {
			return usageError("askls-bench bench: --warm goes without --baseline and --ask")
		}
		opts.CacheDir = p.rf.Cache
		if err := prepareWarm(ctx, opts); err != nil {
			return err
		}
	} else if err := coldBuild(ctx, opts, &a); err != nil {
		return err
	}
	ix, err := warmStart(ctx, opts, &a)
	if err != nil {
		return err
	}
	defer ix.Close()
	if p.warm {
		st := ix.Stats()
		a.Files, a.Chunks = st.Files, st.Chunks
	}
	idleMemory(&a)
	upd, err := pickUpdateFile(ix.Snapshot(), 1000)
	if err != nil {
		return err
	}
	a.UpdateLines = bytes.Count(upd.content, []byte("\n"))
	if err := timeUpdates(ctx, ix, upd, p.updates, &a); err != nil {
		return err
	}
	if err := timeQueries(p.rounds, &a, func(q string) error {
		_, err := ix.Snapshot().Search(ctx, q, 10, index.Filter{})
		return err
	}); err != nil {
		return err
	}
	results := []benchFigures{a}

	var askFig *askFigures
	if p.ask {
		f, err := benchAsk(ctx, ix, p.af.config(), p.askRounds)
		if err != nil {
			return err
		}
		askFig = &f
	}
	if p.baseline {
		b, err := benchBaseline(ctx, root, tmp, p, upd)
		if err != nil {
			return err
		}
		b.UpdateLines = a.UpdateLines
		results = append(results, b)
		if rg, err := exec.LookPath("rg"); err == nil {
			results = append(results, benchRipgrep(ctx, rg, root))
		}
	}
	return printResults(os.Stdout, p.asJSON, results, askFig)
}

// runAskOnly is --ask-only: whole answers on the persisted index of the
// root, no cold build.
func runAskOnly(ctx context.Context, p benchParams) error {
	ix, err := openWorkspace(ctx, p.rf)
	if err != nil {
		return err
	}
	defer ix.Close()
	f, err := benchAsk(ctx, ix, p.af.config(), p.askRounds)
	if err != nil {
		return err
	}
	if p.asJSON {
		return json.NewEncoder(os.Stdout).Encode(f)
	}
	printAskBench(os.Stdout, f)
	return nil
}

// coldBuild times Open + Sync into an empty cache, with the peak RSS.
func coldBuild(ctx context.Context, opts index.Options, a *benchFigures) error {
	resetPeakRSS()
	start := time.Now()
	ix, err := openSynced(ctx, opts)
	if err != nil {
		return err
	}
	a.ColdS = time.Since(start).Seconds()
	a.ColdPeakMB = peakRSSMB()
	st := ix.Stats()
	a.Files, a.Chunks = st.Files, st.Chunks
	return ix.Close()
}

// prepareWarm brings the persisted index of --warm up to date (a cold
// build when there is none), untimed, so that the warm start that follows
// finds nothing changed.
func prepareWarm(ctx context.Context, opts index.Options) error {
	opts.SymbolsOnDemand = true
	ix, err := openSynced(ctx, opts)
	if err != nil {
		return err
	}
	if err := ix.Close(); err != nil {
		return err
	}
	runtime.GC()
	debug.FreeOSMemory()
	return nil
}

// warmStart times Open + Sync with nothing changed and returns the open
// index.
func warmStart(ctx context.Context, opts index.Options, a *benchFigures) (*index.Index, error) {
	start := time.Now()
	ix, err := openSynced(ctx, opts)
	if err != nil {
		return nil, err
	}
	a.WarmS = time.Since(start).Seconds()
	return ix, nil
}

// idleMemory records the heap in use and the RSS of the process holding
// the index, after a collection.
func idleMemory(a *benchFigures) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	a.IdleHeapMB = float64(ms.HeapInuse) / (1 << 20)
	a.IdleRSSMB = rssMB()
}

// updateFile is the file the update figures edit.
type updateFile struct {
	path    string
	content []byte
}

// marked is the file with a unique marker line appended.
func (u updateFile) marked(marker string) []byte {
	return append(bytes.Clone(u.content), []byte("\n// "+marker+"\n")...)
}

// updateMarker is the word update i appends: one lower-case word of
// letters only, which the code analyzer keeps as one term found in no
// other file, so that the search confirming an update costs the same each
// time and the figure is the update's. No digits: a number is a term of
// its own ("marker_32" gives "32"), found in hundreds of thousands of the
// kernel's chunks, and confirming the update would cost that search.
func updateMarker(i int) string {
	return fmt.Sprintf("asklsbenchmark%c%c%c", 'a'+i/676%26, 'a'+i/26%26, 'a'+i%26)
}

// timeUpdates times n one-file updates until a search finds each, past the
// debounce so that it measures the index, not the typing pause.
func timeUpdates(ctx context.Context, ix *index.Index, u updateFile, n int, a *benchFigures) error {
	var ts []float64
	for i := 0; i < n; i++ {
		marker := updateMarker(i)
		content := u.marked(marker)
		time.Sleep(60 * time.Millisecond)
		t := time.Now()
		gen := ix.Update(u.path, content)
		if err := ix.WaitFor(ctx, gen); err != nil {
			return err
		}
		hits, err := ix.Snapshot().Search(ctx, marker, 1, index.Filter{})
		if err != nil || len(hits) == 0 {
			return fmt.Errorf("bench: update %d not searchable: %v", i, err)
		}
		ts = append(ts, ms1(time.Since(t)))
	}
	ix.Release(u.path)
	a.UpdateP50, a.UpdateP99 = percentile(ts, 50), percentile(ts, 99)
	return nil
}

// timeQueries times rounds over the query mix through search.
func timeQueries(rounds int, f *benchFigures, search func(q string) error) error {
	var ts []float64
	for r := 0; r < rounds; r++ {
		for _, q := range benchkit.QueryMix {
			t := time.Now()
			if err := search(q); err != nil {
				return fmt.Errorf("bench: query %q: %w", q, err)
			}
			ts = append(ts, ms1(time.Since(t)))
		}
	}
	f.QueryP50, f.QueryP99 = percentile(ts, 50), percentile(ts, 99)
	return nil
}

// benchBaseline measures plain bleve on the same files: build, updates of
// the same file, the same query mix.
func benchBaseline(ctx context.Context, root, tmp string, p benchParams, u updateFile) (benchFigures, error) {
	b := benchFigures{System: "bleve-default"}
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	start := time.Now()
	bl, bs, err := benchkit.BuildBaseline(ctx, root, tmp, benchkit.BaselineOptions{MaxFileBytes: p.rf.MaxFileBytes, Tests: true})
	if err != nil {
		return b, fmt.Errorf("baseline: %w", err)
	}
	defer bl.Close()
	b.ColdS = time.Since(start).Seconds()
	b.ColdPeakMB = peakRSSMB()
	b.Files, b.Chunks = bs.Files, bs.Chunks
	var ts []float64
	for i := 0; i < p.updates; i++ {
		marker := updateMarker(i)
		t := time.Now()
		if err := bl.Update(u.path, u.marked(marker)); err != nil {
			return b, err
		}
		hits, err := bl.Search(ctx, marker, 1)
		if err != nil || len(hits) == 0 {
			return b, fmt.Errorf("baseline: update %d not searchable: %v", i, err)
		}
		ts = append(ts, ms1(time.Since(t)))
	}
	b.UpdateP50, b.UpdateP99 = percentile(ts, 50), percentile(ts, 99)
	err = timeQueries(p.rounds, &b, func(q string) error {
		_, err := bl.Search(ctx, q, 10)
		return err
	})
	return b, err
}

// printResults prints the figures as a table, or as JSON.
func printResults(w io.Writer, asJSON bool, results []benchFigures, askFig *askFigures) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if askFig != nil {
			return enc.Encode(map[string]any{"index": results, "ask": askFig})
		}
		return enc.Encode(results)
	}
	printBench(w, results)
	if askFig != nil {
		printAskBench(w, *askFig)
	}
	return nil
}

// benchRipgrep times ripgrep over the tree for the identifier queries.
func benchRipgrep(ctx context.Context, rg, root string) benchFigures {
	f := benchFigures{System: "ripgrep"}
	var ts []float64
	for _, q := range benchkit.QueryMix[:10] {
		t := time.Now()
		exec.CommandContext(ctx, rg, "-l", "-F", q, root).Run()
		ts = append(ts, ms1(time.Since(t)))
	}
	f.QueryP50, f.QueryP99 = percentile(ts, 50), percentile(ts, 99)
	return f
}

// pickUpdateFile finds the Go file whose length is closest to lines.
func pickUpdateFile(snap *index.Snapshot, lines int) (updateFile, error) {
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
		return updateFile{}, fmt.Errorf("bench: no file to update")
	}
	return updateFile{path: best, content: bestContent}, nil
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
