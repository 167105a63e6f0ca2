package main

import (
	"context"
	"fmt"
	"os"
)

func runIndex(ctx context.Context, args []string) error {
	fs := newFlagSet("index", "usage: askls index [flags]\n\nIndexes the workspace (or brings its index up to date) and prints what it holds.", os.Stderr)
	rf := rootFlags{symbolsOnDemand: true}
	rf.Register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("askls index takes no arguments; use --root DIR")
	}
	ws, stats, err := openWorkspace(ctx, rf, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	st := ws.Current().Stats()
	line := fmt.Sprintf("indexed %d files (%d re-indexed, %d unchanged, %d removed), %d chunks, %d symbols in %.2fs",
		stats.Files, stats.Indexed, stats.Unchanged, stats.Removed, st.Chunks, st.Symbols, stats.Duration.Seconds())
	if len(stats.Skipped) > 0 {
		line += "; skipped " + skippedSummary(stats.Skipped)
	}
	fmt.Fprintln(os.Stdout, line)
	for _, note := range stats.IgnoreNotes {
		fmt.Fprintln(os.Stdout, "note: "+note)
	}
	return nil
}
