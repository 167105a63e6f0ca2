package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askls/askls/index"
)

func runSearch(ctx context.Context, args []string) error {
	fs := newFlagSet("search", "usage: askls search [flags] QUERY\n\nPrints the best hits of QUERY in the workspace index: path, lines, symbol and excerpt.", os.Stderr)
	rf := rootFlags{symbolsOnDemand: true}
	rf.Register(fs)
	limit := fs.Int("limit", 10, "at most `N` hits")
	asJSON := fs.Bool("json", false, "print one JSON object")
	explain := fs.Bool("explain", false, "print what each ranking stage did to each hit's score")
	glob := fs.String("path", "", "only paths matching `GLOB`")
	noTests := fs.Bool("no-tests", false, "leave out test files")
	words, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	q := strings.Join(words, " ")
	if strings.TrimSpace(q) == "" {
		return usageError("usage: askls search [--root DIR] [--limit N] [--json] [--explain] QUERY")
	}
	ws, _, err := openWorkspace(ctx, rf, !*asJSON)
	if err != nil {
		return err
	}
	defer ws.Close()
	start := time.Now()
	hits, err := ws.Current().Snapshot().Search(ctx, q, *limit, index.Filter{PathGlob: *glob, NoTests: *noTests, Explain: *explain})
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return err
	}
	if *asJSON {
		if hits == nil {
			hits = []index.Hit{}
		}
		out := struct {
			Query string      `json:"query"`
			Hits  []index.Hit `json:"hits"`
			MS    float64     `json:"ms"`
		}{q, hits, ms}
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	if *explain {
		if qp, err := ws.Current().Snapshot().Explain(ctx, q); err == nil {
			fmt.Printf("query: %s\n", qp)
		}
	}
	if len(hits) == 0 {
		fmt.Println("no results")
		return nil
	}
	for _, h := range hits {
		sym := ""
		if h.Symbol != "" {
			sym = "  " + h.Symbol
		}
		fmt.Printf("%s:%d-%d%s  (%.2f)\n", h.Path, h.Start, h.End, sym, h.Score)
		if *explain {
			fmt.Printf("    = %s\n", h.Explain)
		}
		for _, l := range strings.Split(h.Excerpt, "\n") {
			fmt.Printf("    %s\n", l)
		}
	}
	fmt.Fprintf(os.Stderr, "%d hits in %.1f ms\n", len(hits), ms)
	return nil
}
