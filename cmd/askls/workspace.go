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
	opts.SymbolsOnDemand = r.symbolsOnDemand
	return opts
}

// openWorkspace opens the index of the roots and syncs it, with a progress
// bar on stderr when stderr is a terminal. The caller closes the index.
func openWorkspace(ctx context.Context, r rootFlags, progress bool) (*index.Index, index.SyncStats, error) {
	opts := r.options()
	if err := r.CheckBroadRoots(opts.Roots); err != nil {
		return nil, index.SyncStats{}, err
	}
	opts.Logger = slog.New(index.RedactHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
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
