package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/askls/askls/internal/benchkit"
	"github.com/askls/askls/internal/lspclient"
)

// runServe is `askls-bench serve`: the language server as an editor runs
// it (`askls serve`, started by this command as a client over stdio), on
// the persisted index of --root: how long until it says the index is
// ready, its resident memory once it has opened the index (after --settle,
// before any question), its first askls/ask (--ask) and first
// workspace/symbol (which read or build the symbol table), the query mix
// through workspace/symbol, and its resident memory once idle (--idle
// after the first answers, and again after the mix). Resident memory is split into the heap's (anonymous) and
// mapped files' pages (bleve's segments, the symbol table's file).
func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	bin := fs.String("askls", "askls", "the askls `BINARY` to run (go build -o BINARY ./cmd/askls)")
	root := fs.String("root", ".", "workspace root `DIR`")
	cache := fs.String("cache", "", "index cache `DIR` (default $ASKLS_CACHE_DIR, else the user cache folder)")
	idle := fs.Duration("idle", 30*time.Second, "how long to wait after the first answers, and to sample the idle server's memory after the query mix")
	settle := fs.Duration("settle", 0, "how long to wait once the index is ready before sampling the open server's memory")
	ask := fs.String("ask", "", "a `QUESTION` to ask (askls/ask, no model) before the first workspace/symbol")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	path, err := exec.LookPath(*bin)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	cmdArgs := []string{"serve", "--no-model", "--root", abs}
	if *cache != "" {
		cmdArgs = append(cmdArgs, "--cache", *cache)
	}
	cmd := exec.CommandContext(ctx, path, cmdArgs...)
	start := time.Now()
	// The patience only guards against a server that hangs: a cold index
	// of a large tree takes minutes.
	c, err := lspclient.Exec(cmd, lspclient.Options{Patience: time.Hour})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer c.Close()

	u := url.URL{Scheme: "file", Path: abs}
	if err := c.Call(ctx, "initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": u.String(),
		"workspaceFolders": []map[string]string{{"uri": u.String(), "name": filepath.Base(abs)}},
		"capabilities":     map[string]any{},
	}, nil); err != nil {
		return fmt.Errorf("serve: initialize: %w", err)
	}
	if err := c.Notify("initialized", map[string]any{}); err != nil {
		return fmt.Errorf("serve: %w", err)
	}

	var f serveFigures
	ready, err := c.Wait(ctx, "the log line saying the index is ready", lspclient.IsMethod("window/logMessage", indexReady))
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	f.ReadyS = time.Since(start).Seconds()
	f.ReadyLog = logMessage(ready.Params)
	time.Sleep(*settle)
	f.OpenRSSMB, f.OpenAnonMB, f.OpenFileMB = rssSplit(cmd.Process.Pid)
	if *ask != "" {
		t := time.Now()
		if err := c.Call(ctx, "askls/ask", map[string]any{"question": *ask}, nil); err != nil {
			return fmt.Errorf("serve: askls/ask: %w", err)
		}
		f.FirstAskMS = ms1(time.Since(t))
	}
	t := time.Now()
	if err := c.Call(ctx, "workspace/symbol", map[string]any{"query": "main"}, nil); err != nil {
		return fmt.Errorf("serve: workspace/symbol: %w", err)
	}
	f.FirstSymbolMS = ms1(time.Since(t))
	time.Sleep(*idle)
	f.FirstRSSMB, f.FirstAnonMB, f.FirstFileMB = rssSplit(cmd.Process.Pid)
	var ts []float64
	for _, q := range benchkit.QueryMix {
		t := time.Now()
		if err := c.Call(ctx, "workspace/symbol", map[string]any{"query": q}, nil); err != nil {
			return fmt.Errorf("serve: workspace/symbol %q: %w", q, err)
		}
		ts = append(ts, ms1(time.Since(t)))
	}
	f.SymbolP50, f.SymbolP99 = percentile(ts, 50), percentile(ts, 99)
	f.ReadyRSSMB = pidRSSMB(cmd.Process.Pid)
	deadline := time.Now().Add(*idle)
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		f.IdleRSSMB, f.IdleAnonMB, f.IdleFileMB = rssSplit(cmd.Process.Pid)
	}
	f.PeakRSSMB = pidStatusMB(cmd.Process.Pid, "VmHWM:")
	if err := c.Shutdown(ctx); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(f)
	}
	f.print(*ask != "", *idle)
	return nil
}

// print writes the figures for a person; asked says whether a first
// askls/ask was timed.
func (f *serveFigures) print(asked bool, idle time.Duration) {
	fmt.Printf("index ready after %.2f s (%s)\n", f.ReadyS, f.ReadyLog)
	fmt.Printf("RSS once open: %.0f MB (heap %.0f, files %.0f)\n", f.OpenRSSMB, f.OpenAnonMB, f.OpenFileMB)
	if asked {
		fmt.Printf("first askls/ask %.1f ms\n", f.FirstAskMS)
	}
	fmt.Printf("first workspace/symbol %.1f ms; RSS %s after it: %.0f MB (heap %.0f, files %.0f)\n",
		f.FirstSymbolMS, idle, f.FirstRSSMB, f.FirstAnonMB, f.FirstFileMB)
	fmt.Printf("query mix p50 %.2f ms, p99 %.2f ms\n", f.SymbolP50, f.SymbolP99)
	fmt.Printf("RSS: %.0f MB after the queries, %.0f MB idle after %s (heap %.0f, files %.0f); peak %.0f MB\n",
		f.ReadyRSSMB, f.IdleRSSMB, idle, f.IdleAnonMB, f.IdleFileMB, f.PeakRSSMB)
}

// serveFigures are runServe's measurements.
type serveFigures struct {
	ReadyS        float64 `json:"ready_s"`
	ReadyLog      string  `json:"ready_log"`
	OpenRSSMB     float64 `json:"open_rss_mb"`
	OpenAnonMB    float64 `json:"open_rss_anon_mb"`
	OpenFileMB    float64 `json:"open_rss_file_mb"`
	FirstAskMS    float64 `json:"first_ask_ms"`
	FirstSymbolMS float64 `json:"first_symbol_ms"`
	FirstRSSMB    float64 `json:"first_answers_rss_mb"`
	FirstAnonMB   float64 `json:"first_answers_rss_anon_mb"`
	FirstFileMB   float64 `json:"first_answers_rss_file_mb"`
	SymbolP50     float64 `json:"symbol_p50_ms"`
	SymbolP99     float64 `json:"symbol_p99_ms"`
	ReadyRSSMB    float64 `json:"rss_after_queries_mb"`
	IdleRSSMB     float64 `json:"idle_rss_mb"`
	IdleAnonMB    float64 `json:"idle_rss_anon_mb"`
	IdleFileMB    float64 `json:"idle_rss_file_mb"`
	PeakRSSMB     float64 `json:"peak_rss_mb"`
}

// indexReady: a window/logMessage saying the index is ready, or that
// indexing failed.
func indexReady(params json.RawMessage) bool {
	msg := logMessage(params)
	return strings.Contains(msg, `msg="index ready"`) || strings.Contains(msg, `msg="indexing failed"`)
}

func logMessage(params json.RawMessage) string {
	var p struct {
		Message string `json:"message"`
	}
	json.Unmarshal(params, &p)
	return p.Message
}

// rssSplit is process pid's resident set, its anonymous pages (the heap)
// and its pages of mapped files, in MB.
func rssSplit(pid int) (all, anon, file float64) {
	return pidRSSMB(pid), pidStatusMB(pid, "RssAnon:"), pidStatusMB(pid, "RssFile:")
}
