package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/benchkit"
)

// evalQuestion is one line of a question set (testdata/eval/README.md).
type evalQuestion struct {
	ID       string `json:"id"`
	Corpus   string `json:"corpus"`
	Category string `json:"category"`
	Question string `json:"question"`
	Expected []struct {
		Path       string `json:"path"`
		Start, End int
		Symbol     string `json:"symbol"`
	} `json:"expected"`
}

// evalResult scores one question.
type evalResult struct {
	ID       string   `json:"id"`
	Rank     int      `json:"rank"`    // 1-based rank of the first expected file among distinct files; 0: not in the top 10
	Overlap  bool     `json:"overlap"` // a returned range (top 10 hits) overlaps an expected range
	TopPath  string   `json:"top_path"`
	TopScore float64  `json:"top_score"`
	Files    []string `json:"files,omitempty"`
}

// evalSummary is the figures of one system on one set.
type evalSummary struct {
	System     string       `json:"system"`
	Questions  int          `json:"questions"` // with expected files
	Top1       int          `json:"top1"`
	Top5       int          `json:"top5"`
	Top10      int          `json:"top10"`
	Overlap    int          `json:"overlap"`
	Overlap3   int          `json:"overlap3"` // an expected range overlapped by one of the first 3 hits (the ranking's span@3)
	MedianMS   float64      `json:"median_ms"`
	Absent     []evalResult `json:"absent"`
	PresentMed float64      `json:"present_median_top_score"`
	Results    []evalResult `json:"results"`
}

func runEval(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	var rf rootFlags
	rf.register(fs)
	set := fs.String("set", "testdata/eval/goroot.jsonl", "question set `FILE.jsonl`")
	baseline := fs.Bool("baseline", false, "also measure a plain bleve index (default mapping, 60-line chunks, match query) in the same run")
	asJSON := fs.Bool("json", false, "print the summaries as JSON")
	verbose := fs.Bool("v", false, "print each question's result")
	outside := fs.String("outside", "", "comma-separated path prefixes outside the question set's corpus; hits and citations there are dropped for every system (default: the corpus's own, e.g. cmd/ and vendor/ for goroot)")
	answers := fs.Bool("answers", true, "also score retrieval-mode answers (span@3, file@3, the weak-evidence line)")
	check := fs.String("check", "", "floors the run must meet, e.g. `top5>=0.9,span3>=0.7,weak_absent>=0.8,weak_answerable<=0.1`; exits 1 when one is missed")
	latency := fs.Int("latency", 0, "also time `N` rounds of askls bench's query mix and of the set's questions (limit 10) on the warm index and print p50/p99")
	if err := fs.Parse(args); err != nil {
		return err
	}
	qs, err := readQuestions(*set)
	if err != nil {
		return err
	}
	ix, err := openWorkspace(ctx, rf)
	if err != nil {
		return err
	}
	defer ix.Close()
	snap := ix.Snapshot()
	if *outside == "" && len(qs) > 0 {
		*outside = corpusOutside[qs[0].Corpus]
	}
	var prefixes []string
	for _, p := range strings.Split(*outside, ",") {
		if p = strings.TrimSpace(p); p != "" {
			prefixes = append(prefixes, p)
		}
	}
	summaries := []evalSummary{scoreSet("askls", qs, func(q string) ([]index.Hit, error) {
		return inCorpus(prefixes)(snap.Search(ctx, q, 60, index.Filter{NoTests: true}))
	})}
	if *latency > 0 {
		if err := timeSearches(ctx, snap, qs, *latency); err != nil {
			return err
		}
	}
	if *baseline {
		b, err := scoreBaseline(ctx, rf, qs, prefixes)
		if err != nil {
			return err
		}
		summaries = append(summaries, b)
	}
	var ans *answerSummary
	if *answers {
		a, err := scoreAnswers(ctx, snap, qs, prefixes)
		if err != nil {
			return err
		}
		ans = &a
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(evalReport{Set: *set, Search: summaries, Answers: ans}); err != nil {
			return err
		}
	} else {
		printEval(os.Stdout, summaries, *verbose)
		if ans != nil {
			printAnswers(os.Stdout, *ans, *verbose)
		}
	}
	missed, err := checkFloors(*check, summaries, ans)
	if err != nil {
		return usageError(err.Error())
	}
	if len(missed) > 0 {
		return fmt.Errorf("%s: below the floor: %s", *set, strings.Join(missed, "; "))
	}
	return nil
}

// inCorpus returns a filter of search results that drops the hits under
// the prefixes the question set leaves out.
func inCorpus(prefixes []string) func([]index.Hit, error) ([]index.Hit, error) {
	return func(hits []index.Hit, err error) ([]index.Hit, error) {
		var out []index.Hit
		for _, h := range hits {
			if !hasPrefix(h.Path, prefixes) {
				out = append(out, h)
			}
		}
		return out, err
	}
}

// timeSearches times rounds of the bench's query mix and of the set's
// questions at limit 10 and prints p50 and p99 of each to stderr, and
// p50 and the slowest of the first round
// (ASKLS_EVAL_CPUPROFILE=FILE also writes a CPU profile).
func timeSearches(ctx context.Context, snap *index.Snapshot, qs []evalQuestion, rounds int) error {
	if pf := os.Getenv("ASKLS_EVAL_CPUPROFILE"); pf != "" {
		f, err := os.Create(pf)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	run := func(what string, queries []string) error {
		var ts []float64
		for r := 0; r < rounds; r++ {
			for _, q := range queries {
				t := time.Now()
				if _, err := snap.Search(ctx, q, 10, index.Filter{}); err != nil {
					return fmt.Errorf("eval: %q: %w", q, err)
				}
				ts = append(ts, float64(time.Since(t).Microseconds())/1000)
			}
		}
		// The first round reads its chunks from disk; later rounds find
		// them in the index's span cache (index/spancache.go).
		first := ts[:min(len(ts), len(queries))]
		fmt.Fprintf(os.Stderr, "%s over %d searches (limit 10): p50 %.2f ms, p99 %.2f ms; first round p50 %.2f ms, max %.2f ms\n",
			what, len(ts), percentile(ts, 50), percentile(ts, 99), percentile(first, 50), percentile(first, 100))
		return nil
	}
	if err := run("query latency", benchkit.QueryMix); err != nil {
		return err
	}
	var questions []string
	for _, q := range qs {
		questions = append(questions, q.Question)
	}
	return run("the set's questions", questions)
}

// scoreBaseline builds the plain-bleve baseline of the one root in a
// temporary folder and scores the set on it.
func scoreBaseline(ctx context.Context, rf rootFlags, qs []evalQuestion, prefixes []string) (evalSummary, error) {
	if len(rf.Roots) > 1 {
		return evalSummary{}, usageError("--baseline takes one --root")
	}
	root := "."
	if len(rf.Roots) == 1 {
		root = rf.Roots[0]
	}
	tmp, err := os.MkdirTemp("", "askls-baseline-")
	if err != nil {
		return evalSummary{}, err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(os.Stderr, "building the baseline index (bleve default mapping)...")
	b, _, err := benchkit.BuildBaseline(ctx, root, tmp, benchkit.BaselineOptions{MaxFileBytes: rf.MaxFileBytes})
	if err != nil {
		return evalSummary{}, fmt.Errorf("baseline: %w", err)
	}
	defer b.Close()
	return scoreSet("baseline", qs, func(q string) ([]index.Hit, error) {
		return inCorpus(prefixes)(b.Search(ctx, q, 60))
	}), nil
}

// evalReport is eval's JSON output.
type evalReport struct {
	Set     string         `json:"set"`
	Search  []evalSummary  `json:"search"`
	Answers *answerSummary `json:"answers,omitempty"`
}

func readQuestions(path string) ([]evalQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("question set: %w", err)
	}
	defer f.Close()
	var qs []evalQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q evalQuestion
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}

// scoreSet runs every question through search and scores it.
func scoreSet(system string, qs []evalQuestion, search func(string) ([]index.Hit, error)) evalSummary {
	s := evalSummary{System: system}
	var times, present []float64
	for _, q := range qs {
		start := time.Now()
		hits, err := search(q.Question)
		times = append(times, float64(time.Since(start).Microseconds())/1000)
		r := evalResult{ID: q.ID}
		if err != nil {
			r.TopPath = "error: " + err.Error()
		}
		if len(hits) > 0 {
			r.TopPath, r.TopScore = hits[0].Path, hits[0].Score
		}
		seen := map[string]bool{}
		for _, h := range hits {
			if !seen[h.Path] && len(r.Files) < 10 {
				seen[h.Path] = true
				r.Files = append(r.Files, h.Path)
			}
		}
		if len(q.Expected) == 0 {
			s.Absent = append(s.Absent, r)
			continue
		}
		s.Questions++
		present = append(present, r.TopScore)
		for i, f := range r.Files {
			if r.Rank == 0 {
				for _, e := range q.Expected {
					if e.Path == f {
						r.Rank = i + 1
					}
				}
			}
		}
		for i, h := range hits[:min(10, len(hits))] {
			for _, e := range q.Expected {
				if h.Path == e.Path && h.Start <= e.End && e.Start <= h.End {
					if !r.Overlap && i < 3 {
						s.Overlap3++
					}
					r.Overlap = true
				}
			}
		}
		switch {
		case r.Rank == 1:
			s.Top1++
			fallthrough
		case r.Rank >= 1 && r.Rank <= 5:
			s.Top5++
			fallthrough
		case r.Rank >= 1 && r.Rank <= 10:
			s.Top10++
		}
		if r.Overlap {
			s.Overlap++
		}
		s.Results = append(s.Results, r)
	}
	s.MedianMS = median(times)
	s.PresentMed = median(present)
	return s
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	return ys[len(ys)/2]
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", n, of, 100*float64(n)/float64(of))
}

func printEval(w io.Writer, ss []evalSummary, verbose bool) {
	fmt.Fprintf(w, "%-9s %-14s %-14s %-14s %-14s %s\n", "system", "top-1", "top-5", "top-10", "range overlap", "median ms")
	for _, s := range ss {
		fmt.Fprintf(w, "%-9s %-14s %-14s %-14s %-14s %.1f\n", s.System, pct(s.Top1, s.Questions), pct(s.Top5, s.Questions),
			pct(s.Top10, s.Questions), pct(s.Overlap, s.Questions), s.MedianMS)
	}
	if len(ss) == 2 && ss[1].Top1 > 0 {
		a, b := ss[0], ss[1]
		fmt.Fprintf(w, "ratio askls/baseline: top-1 %.2f×, top-5 %.2f×, top-10 %.2f×\n",
			float64(a.Top1)/float64(b.Top1), float64(a.Top5)/float64(max(1, b.Top5)), float64(a.Top10)/float64(max(1, b.Top10)))
	}
	for _, s := range ss {
		if len(s.Absent) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s, absent questions (right outcome: a refusal; median top score of the others %.2f):\n", s.System, s.PresentMed)
		for _, r := range s.Absent {
			fmt.Fprintf(w, "  %-10s top %.2f %s\n", r.ID, r.TopScore, r.TopPath)
		}
	}
	if verbose {
		for _, s := range ss {
			fmt.Fprintf(w, "%s per question:\n", s.System)
			for _, r := range s.Results {
				fmt.Fprintf(w, "  %-10s rank %-2d overlap %-5v %s\n", r.ID, r.Rank, r.Overlap, strings.Join(r.Files[:min(3, len(r.Files))], " "))
			}
		}
	}
}
