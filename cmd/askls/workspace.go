package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
	"golang.org/x/term"
)

// rootFlags are the workspace flags every subcommand shares.
type rootFlags struct {
	roots          []string
	cache          string
	maxFileBytes   int64
	maxFiles       int
	maxTotalBytes  int64
	allowBroadRoot bool

	// symbolsOnDemand: the command may never look up a symbol (index,
	// search), so the index builds its symbol table only if asked.
	symbolsOnDemand bool
}

// register adds --root DIR (repeatable, default "."), --cache DIR and
// --max-file-bytes N to fs.
func (r *rootFlags) register(fs *flag.FlagSet) {
	fs.Func("root", "workspace root `DIR` (repeatable; default: the current folder)", func(s string) error {
		r.roots = append(r.roots, s)
		return nil
	})
	fs.StringVar(&r.cache, "cache", "", "index cache `DIR` (default $ASKLS_CACHE_DIR, else the user cache folder)")
	fs.Int64Var(&r.maxFileBytes, "max-file-bytes", 1<<20, "skip files larger than `N` bytes")
	fs.IntVar(&r.maxFiles, "max-files", 0, "stop when a root has more than `N` files to index (default 500000; -1: no limit)")
	fs.Int64Var(&r.maxTotalBytes, "max-total-bytes", 0, "stop when a root has more than `N` bytes to index (default 8 GiB; -1: no limit)")
	fs.BoolVar(&r.allowBroadRoot, "allow-broad-root", false, "index a root that is / or your home folder (refused by default)")
}

func (r rootFlags) options() index.Options {
	roots := r.roots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return index.Options{Roots: roots, CacheDir: r.cache, MaxFileBytes: r.maxFileBytes,
		MaxFiles: r.maxFiles, MaxTotalBytes: r.maxTotalBytes, AllowBroadRoots: r.allowBroadRoot, Runtime: memtune.Process,
		SymbolsOnDemand: r.symbolsOnDemand}
}

// checkBroadRoots refuses a root that is / or the home folder unless
// --allow-broad-root says so: the command line has no open buffers to
// fall back on (the server answers from them instead).
func (r rootFlags) checkBroadRoots(roots []string) error {
	if r.allowBroadRoot {
		return nil
	}
	for _, dir := range roots {
		if why := index.BroadRoot(dir); why != "" {
			abs, _ := filepath.Abs(dir)
			return fmt.Errorf("not indexing %s: %s. Run askls in a project folder (or pass --root DIR), or pass --allow-broad-root to index it anyway", abs, why)
		}
	}
	return nil
}

// openWorkspace opens the index of the roots and syncs it, with a progress
// bar on stderr when stderr is a terminal. The caller closes the index.
func openWorkspace(ctx context.Context, r rootFlags, progress bool) (*index.Index, index.SyncStats, error) {
	opts := r.options()
	if err := r.checkBroadRoots(opts.Roots); err != nil {
		return nil, index.SyncStats{}, err
	}
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	var bar *progressBar
	if progress && term.IsTerminal(int(os.Stderr.Fd())) {
		bar = &progressBar{}
		opts.Progress = bar.update
	}
	ix, err := index.Open(ctx, opts)
	if err != nil {
		return nil, index.SyncStats{}, err
	}
	stats, err := ix.Sync(ctx)
	bar.finish()
	if err != nil {
		ix.Close()
		return nil, stats, err
	}
	return ix, stats, nil
}

// progressBar draws one line on stderr.
type progressBar struct{ last time.Time }

func (b *progressBar) update(p index.Progress) {
	if time.Since(b.last) < 100*time.Millisecond && p.Phase != "done" {
		return
	}
	b.last = time.Now()
	if p.Total == 0 {
		fmt.Fprintf(os.Stderr, "\r%-8s ...%20s", p.Phase, "")
		return
	}
	const width = 30
	n := p.Done * width / p.Total
	fmt.Fprintf(os.Stderr, "\r%-8s [%s%s] %d/%d ", p.Phase, strings.Repeat("=", n), strings.Repeat(" ", width-n), p.Done, p.Total)
}

func (b *progressBar) finish() {
	if b != nil {
		fmt.Fprintf(os.Stderr, "\r%70s\r", "")
	}
}

// skippedSummary formats SyncStats.Skipped as "3 binary, 1 too large".
func skippedSummary(s map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(s) {
		parts = append(parts, fmt.Sprintf("%d %s", s[k], k))
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
