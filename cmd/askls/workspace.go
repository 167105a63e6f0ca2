package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/rootflag"
	"github.com/askls/askls/workspace"
	"golang.org/x/term"
)

// rootFlags are the workspace flags every subcommand shares.
type rootFlags struct {
	rootflag.Flags

	// symbolsOnDemand: the command may never look up a symbol (index,
	// search), so the index builds its symbol table only if asked.
	symbolsOnDemand bool
}

func (r rootFlags) options() index.Options {
	opts := r.Options()
	opts.CacheDir = cacheDir(r.Cache)
	opts.ConfigDir = configDir()
	opts.SymbolsOnDemand = r.symbolsOnDemand
	return opts
}

// newWorkspace is the workspace of the roots, not opened yet (its threads
// can be used at once), logging to stderr. Its Open draws a progress bar
// on stderr when progress is set and stderr is a terminal.
func newWorkspace(r rootFlags, progress bool) *workspace.Workspace {
	logger := slog.New(index.RedactHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	maxThreads, maxAge := threadLimits()
	opts := workspace.Options{Index: r.options(), Logger: logger, MaxThreads: maxThreads, MaxThreadAge: maxAge}
	if progress && term.IsTerminal(int(os.Stderr.Fd())) {
		opts.Hooks.Starting = func(context.Context, []string) workspace.Indexing { return progressBar{} }
	}
	return workspace.New(opts)
}

// openWorkspace opens the index of the roots and syncs it, for a command
// that exits once done (index, search). The caller closes the workspace;
// on an error nothing stays open.
func openWorkspace(ctx context.Context, r rootFlags, progress bool) (*workspace.Workspace, index.SyncStats, error) {
	ws := newWorkspace(r, progress)
	stats, err := openIn(ctx, ws, r)
	if err != nil {
		return nil, stats, err
	}
	return ws, stats, nil
}

// openIn opens and syncs ws, whose roots are r's: a root that is / or the
// home folder only with --allow-broad-root.
func openIn(ctx context.Context, ws *workspace.Workspace, r rootFlags) (index.SyncStats, error) {
	if err := r.CheckBroadRoots(r.RootsOrHere()); err != nil {
		return index.SyncStats{}, err
	}
	return ws.Open(ctx)
}

// progressBar draws one line on stderr (workspace.Indexing).
type progressBar struct{}

func (progressBar) Progress(p index.Progress) {
	if p.Total == 0 {
		fmt.Fprintf(os.Stderr, "\r%-8s ...%20s", p.Phase, "")
		return
	}
	const width = 30
	n := p.Done * width / p.Total
	fmt.Fprintf(os.Stderr, "\r%-8s [%s%s] %d/%d ", p.Phase, strings.Repeat("=", n), strings.Repeat(" ", width-n), p.Done, p.Total)
}

func (progressBar) Done(index.SyncStats, time.Duration, error) {
	fmt.Fprintf(os.Stderr, "\r%70s\r", "")
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
