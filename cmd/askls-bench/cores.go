package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/askls/askls/index"
)

// coreRun is one cold build of --cores: the cores it was given
// (GOMAXPROCS) and its wall time.
type coreRun struct {
	Cores int     `json:"cores"`
	ColdS float64 `json:"cold_index_s"`
	// Speedup is the first run's time over this one's.
	Speedup float64 `json:"speedup"`
	// Serial is the Karp–Flatt estimate of the build's serial share from
	// the first run to this one (serialShare); 0 for the first run.
	Serial float64 `json:"serial_share,omitempty"`
}

// parseCores reads --cores: a comma-separated list of core counts, in
// increasing order.
func parseCores(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageError(fmt.Sprintf("askls-bench bench: --cores %q: want counts of cores such as 1,2,4", s))
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, usageError(fmt.Sprintf("askls-bench bench: --cores %q: counts must increase", s))
		}
		out = append(out, n)
	}
	return out, nil
}

// serialShare is the Karp–Flatt metric: the share e of a build that does
// not run in parallel, from its speedup s on p times the cores of a
// first run (Amdahl: 1/s = e + (1-e)/p, so e = (1/s - 1/p)/(1 - 1/p)).
// A share of 0.2 means a fifth of the first run's time gains nothing
// from more cores.
func serialShare(s, p float64) float64 {
	if p <= 1 || s <= 0 {
		return 0
	}
	return (1/s - 1/p) / (1 - 1/p)
}

// benchCores times a cold build of opts' root at each count of cores
// (GOMAXPROCS), each into an empty cache under tmp, and writes the
// scaling and the serial share the timings imply.
func benchCores(ctx context.Context, opts index.Options, tmp string, cores []int, w io.Writer, asJSON bool) error {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var runs []coreRun
	for i, n := range cores {
		runtime.GOMAXPROCS(n)
		opts.CacheDir = filepath.Join(tmp, fmt.Sprintf("cores-%d", n))
		var a benchFigures
		if err := coldBuild(ctx, opts, &a); err != nil {
			return fmt.Errorf("bench: cold build on %d cores: %w", n, err)
		}
		if err := os.RemoveAll(opts.CacheDir); err != nil {
			return err
		}
		r := coreRun{Cores: n, ColdS: a.ColdS, Speedup: 1}
		if i > 0 {
			r.Speedup = runs[0].ColdS / a.ColdS
			r.Serial = serialShare(r.Speedup, float64(n)/float64(cores[0]))
		}
		runs = append(runs, r)
	}
	if asJSON {
		return json.NewEncoder(w).Encode(runs)
	}
	fmt.Fprintf(w, "cold index by cores (GOMAXPROCS; %d on this machine)\n", runtime.NumCPU())
	fmt.Fprintf(w, "%6s %10s %8s %14s\n", "cores", "cold", "speedup", "serial share")
	for _, r := range runs {
		serial := "-"
		if r.Serial != 0 {
			serial = fmt.Sprintf("%.2f (%.1f s)", r.Serial, r.Serial*runs[0].ColdS)
		}
		fmt.Fprintf(w, "%6d %9.2fs %7.2f× %14s\n", r.Cores, r.ColdS, r.Speedup, serial)
	}
	return nil
}
