package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/benchkit"
)

// The broad benchmark (testdata/eval/broad): one question set per public
// project, each question in the development half (odd id) or the held-out
// half (even id). `askls-bench broad` fetches each set's tree, indexes it,
// and scores askls's search, its retrieval-mode answers and plain bleve
// with BM25 in the same run.

// broadHalves are the halves' names, in print order.
var broadHalves = []string{"dev", "held"}

// ndcgK is the depth of NDCG: the first page of hits.
const ndcgK = 10

// broadScore is one question's figures on one system.
type broadScore struct {
	Set, ID, Half, Kind string
	NDCG                float64  // NDCG@10 over chunks
	Top5                bool     // an expected file among the first 5 files
	Span3               bool     // retrieval answer: an expected location among the first 3 citations (askls only)
	First               []string // the first ndcgK hits, path:start-end
	Cited               []string `json:",omitempty"` // the retrieval answer's first 3 citations, path:start-end (askls only)
	// Hits are every hit of the search (60), each with what every
	// ranking stage did to its score and no excerpt (--hits, askls
	// only): what an analysis of the stages' weights reads.
	Hits []index.Hit `json:",omitempty"`
}

// broadTotals sums scores of one group (a half, a half's kind, a set).
type broadTotals struct {
	N           int
	NDCG        float64 // sum; the mean is NDCG/N
	Top5, Span3 int
}

func (t *broadTotals) add(s broadScore) {
	t.N++
	t.NDCG += s.NDCG
	if s.Top5 {
		t.Top5++
	}
	if s.Span3 {
		t.Span3++
	}
}

func (t broadTotals) mean() float64 {
	if t.N == 0 {
		return 0
	}
	return t.NDCG / float64(t.N)
}

// questionHalf is the half a question's id puts it in: an odd number at
// its end is the development half; an even one, or none, held out.
func questionHalf(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(id[i:])
	if err == nil && n%2 == 1 {
		return "dev"
	}
	return "held"
}

// broadKind folds a question's category into the benchmark's three kinds
// (testdata/eval/broad/README.md): where X is, how X works, how the parts
// fit together. Config questions ask where a setting is defined and read
// (locate); overviews ask how a part works (how).
func broadKind(category string) string {
	switch category {
	case "locate", "config":
		return "locate"
	case "trace":
		return "trace"
	}
	return "how"
}

// ndcgAt scores a ranked list of chunks against the expected locations:
// a hit is relevant when its lines overlap an expected location not
// counted yet (each answer counts once), with gain 1 discounted by
// log2(rank+1); the ideal list puts every answer first.
func ndcgAt(hits []index.Hit, q evalQuestion, k int) float64 {
	if len(q.Expected) == 0 {
		return 0
	}
	used := make([]bool, len(q.Expected))
	dcg := 0.0
	for i, h := range hits[:min(k, len(hits))] {
		for j, e := range q.Expected {
			if !used[j] && h.Path == e.Path && h.Start <= e.End && e.Start <= h.End {
				used[j] = true
				dcg += 1 / math.Log2(float64(i+2))
				break
			}
		}
	}
	ideal := 0.0
	for i := 0; i < min(k, len(q.Expected)); i++ {
		ideal += 1 / math.Log2(float64(i+2))
	}
	return dcg / ideal
}

// fileInTop reports whether an expected file is among the first n
// distinct files of hits.
func fileInTop(hits []index.Hit, q evalQuestion, n int) bool {
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.Path] {
			continue
		}
		seen[h.Path] = true
		if len(seen) > n {
			return false
		}
		for _, e := range q.Expected {
			if e.Path == h.Path {
				return true
			}
		}
	}
	return false
}

func runBroad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("broad", flag.ContinueOnError)
	dir := fs.String("sets", "testdata/eval/broad", "`FOLDER` of the broad benchmark's sets (NAME.jsonl, fetched by testdata/eval/fetch.sh NAME)")
	only := fs.String("only", "", "comma-separated set `NAMES` to run (default: every set in the folder)")
	cache := fs.String("cache", "", "`FOLDER` for the sets' indexes (default: a temporary folder, removed at the end)")
	baseline := fs.Bool("baseline", true, "also score plain bleve with BM25 (60-line chunks, a match query) in the same run")
	tune := fs.String("tune", "", "ranking parameters `FIELD=VALUE,...` (fields of index.Ranking) changed from the defaults")
	verbose := fs.Bool("v", false, "print each question's result")
	asJSON := fs.Bool("json", false, "print every question's scores as JSON")
	beside := fs.String("beside", "", "a set `NAME` whose tree joins every other set's workspace as a second root (NDCG and top-5 only)")
	hits := fs.Bool("hits", false, "with --json, also every hit of each question's search (60) with its score breakdown (askls search --explain), no excerpts")
	check := fs.String("check", "", "floors, e.g. `dev.ndcg>=0.7,held.ndcg>=0.7,held.top5>=0.8,held.span3>=0.6` (also HALF.KIND.ndcg); exits 1 when one is missed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sets, err := broadSets(*dir, *only)
	if err != nil {
		return err
	}
	if *cache == "" {
		tmp, err := os.MkdirTemp("", "askls-broad-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		*cache = tmp
	}
	var scores, base []broadScore
	for _, set := range sets {
		s, b, err := broadRun{cache: *cache, tune: *tune, baseline: *baseline, beside: *beside, hits: *hits}.scoreBroadSet(ctx, set)
		if err != nil {
			return err
		}
		scores = append(scores, s...)
		base = append(base, b...)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string][]broadScore{"askls": scores, "bm25": base}); err != nil {
			return err
		}
	} else {
		printBroad(os.Stdout, scores, base, *verbose)
	}
	missed, err := checkBroad(*check, scores)
	if err != nil {
		return usageError(err.Error())
	}
	if len(missed) > 0 {
		return fmt.Errorf("broad: below the floor: %s", strings.Join(missed, "; "))
	}
	return nil
}

// broadSets lists the sets of folder dir, or the named ones.
func broadSets(dir, only string) ([]string, error) {
	if only != "" {
		var sets []string
		for _, n := range strings.Split(only, ",") {
			if n = strings.TrimSpace(n); n != "" {
				sets = append(sets, filepath.Join(dir, n+".jsonl"))
			}
		}
		return sets, nil
	}
	sets, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("broad: no sets (*.jsonl) in %s", dir)
	}
	sort.Strings(sets)
	return sets, nil
}

// fetchRoot runs fetch.sh (beside the sets' folder) for a set and returns
// the corpus root it prints.
func fetchRoot(ctx context.Context, setsDir, name string) (string, error) {
	script := filepath.Join(filepath.Dir(setsDir), "fetch.sh")
	cmd := exec.CommandContext(ctx, "bash", script, name)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("broad: fetching %s with %s: %w", name, script, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// broadRun is how a broad run indexes and scores each set.
type broadRun struct {
	cache, tune string
	baseline    bool
	// beside names a set whose tree joins every other set's workspace as
	// a second root: its chunks compete with the set's own, as in a
	// workspace of several folders. The set's hits are then named
	// ROOT/PATH; the run strips its own root's prefix and does not score
	// the answers' spans.
	beside string
	hits   bool // record every hit with its breakdown (broadScore.Hits)
}

// scoreBroadSet indexes one set's tree and scores its questions on askls
// and, with baseline, on plain bleve with BM25.
func (br broadRun) scoreBroadSet(ctx context.Context, set string) (askls, bm25 []broadScore, err error) {
	name := strings.TrimSuffix(filepath.Base(set), ".jsonl")
	qs, err := readQuestions(set)
	if err != nil {
		return nil, nil, err
	}
	root, err := fetchRoot(ctx, filepath.Dir(set), name)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(os.Stderr, "broad: %s (%d questions) at %s\n", name, len(qs), root)
	var rf rootFlags
	rf.Roots = []string{root}
	rf.Cache = filepath.Join(br.cache, name)
	rf.tune = br.tune
	prefix := ""
	if br.beside != "" && br.beside != name {
		other, err := fetchRoot(ctx, filepath.Dir(set), br.beside)
		if err != nil {
			return nil, nil, err
		}
		rf.Roots = append(rf.Roots, other)
		rf.Cache = filepath.Join(br.cache, name+"+"+br.beside)
		prefix = filepath.Base(root) + "/"
	}
	ix, err := openWorkspace(ctx, rf)
	if err != nil {
		return nil, nil, fmt.Errorf("broad: %s: %w", name, err)
	}
	defer ix.Close()
	snap := ix.Snapshot()
	span := map[string]answerResult{}
	if prefix == "" {
		ans, err := scoreAnswers(ctx, snap, qs, nil)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range ans.Results {
			span[r.ID] = r
		}
	}
	score := func(hits []index.Hit, q evalQuestion) broadScore {
		for i := range hits {
			hits[i].Path = strings.TrimPrefix(hits[i].Path, prefix)
		}
		s := broadScore{Set: name, ID: q.ID, Half: questionHalf(q.ID), Kind: broadKind(q.Category),
			NDCG: ndcgAt(hits, q, ndcgK), Top5: fileInTop(hits, q, 5)}
		for _, h := range hits[:min(ndcgK, len(hits))] {
			s.First = append(s.First, fmt.Sprintf("%s:%d-%d", h.Path, h.Start, h.End))
		}
		return s
	}
	for _, q := range qs {
		if len(q.Expected) == 0 {
			continue
		}
		hits, err := snap.Search(ctx, q.Question, 60, index.Filter{Explain: br.hits})
		if err != nil {
			return nil, nil, fmt.Errorf("broad: %s: %w", q.ID, err)
		}
		s := score(hits, q)
		if br.hits {
			for i := range hits {
				hits[i].Excerpt = ""
			}
			s.Hits = hits
		}
		s.Span3, s.Cited = span[q.ID].Span3, span[q.ID].First
		askls = append(askls, s)
	}
	if !br.baseline {
		return askls, nil, nil
	}
	bm25, err = baselineScores(ctx, root, qs, score)
	if err != nil {
		return nil, nil, fmt.Errorf("broad: %s: %w", name, err)
	}
	return askls, bm25, nil
}

// baselineScores scores qs on plain bleve with BM25 over root.
func baselineScores(ctx context.Context, root string, qs []evalQuestion, score func([]index.Hit, evalQuestion) broadScore) ([]broadScore, error) {
	tmp, err := os.MkdirTemp("", "askls-bm25-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b, _, err := benchkit.BuildBaseline(ctx, root, tmp, benchkit.BaselineOptions{Tests: true, BM25: true})
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	defer b.Close()
	var out []broadScore
	for _, q := range qs {
		if len(q.Expected) == 0 {
			continue
		}
		hits, err := b.Search(ctx, q.Question, 60)
		if err != nil {
			return nil, fmt.Errorf("baseline: %s: %w", q.ID, err)
		}
		out = append(out, score(hits, q))
	}
	return out, nil
}

// broadGroups sums scores by half, half and kind, and half and set; keys
// are "dev", "dev.how", "dev@cobra".
func broadGroups(scores []broadScore) map[string]*broadTotals {
	g := map[string]*broadTotals{}
	add := func(key string, s broadScore) {
		if g[key] == nil {
			g[key] = &broadTotals{}
		}
		g[key].add(s)
	}
	for _, s := range scores {
		add(s.Half, s)
		add(s.Half+"."+s.Kind, s)
		add(s.Half+"@"+s.Set, s)
		add("all@"+s.Set, s)
	}
	return g
}

func printBroad(w io.Writer, scores, base []broadScore, verbose bool) {
	a, b := broadGroups(scores), broadGroups(base)
	frac := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d", n, of)
	}
	row := func(label string, t, bt *broadTotals) {
		if t == nil {
			return
		}
		line := fmt.Sprintf("%-22s %4d  ndcg@10 %.3f  top-5 %-8s span@3 %-8s", label, t.N, t.mean(), frac(t.Top5, t.N), frac(t.Span3, t.N))
		if bt != nil {
			line += fmt.Sprintf("  | bm25 ndcg@10 %.3f top-5 %s", bt.mean(), frac(bt.Top5, bt.N))
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "askls (left) and plain bleve BM25 (right), one run")
	for _, h := range broadHalves {
		row(h, a[h], b[h])
		for _, k := range []string{"locate", "how", "trace"} {
			row("  "+h+"."+k, a[h+"."+k], b[h+"."+k])
		}
	}
	var sets []string
	for k := range a {
		if strings.HasPrefix(k, "all@") {
			sets = append(sets, strings.TrimPrefix(k, "all@"))
		}
	}
	sort.Strings(sets)
	fmt.Fprintln(w, "per set (dev / held):")
	for _, s := range sets {
		d, h := a["dev@"+s], a["held@"+s]
		bd, bh := b["dev@"+s], b["held@"+s]
		mean := func(t *broadTotals) float64 {
			if t == nil {
				return 0
			}
			return t.mean()
		}
		fmt.Fprintf(w, "  %-14s ndcg@10 %.3f / %.3f   bm25 %.3f / %.3f\n", s, mean(d), mean(h), mean(bd), mean(bh))
	}
	if verbose {
		for _, s := range scores {
			fmt.Fprintf(w, "  %-16s %-4s %-6s ndcg %.2f top5 %-5v span3 %-5v %s\n", s.ID, s.Half, s.Kind, s.NDCG, s.Top5, s.Span3, strings.Join(s.First, " "))
		}
	}
}

// checkBroad tests the run against floors written as HALF.FIGURE>=X or
// HALF.KIND.FIGURE>=X (FIGURE: ndcg, top5, span3; fractions).
func checkBroad(spec string, scores []broadScore) ([]string, error) {
	g := broadGroups(scores)
	var missed []string
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		i := strings.Index(f, ">=")
		if i < 0 {
			return nil, fmt.Errorf("--check: %q is not GROUP.FIGURE>=X", f)
		}
		want, err := strconv.ParseFloat(f[i+2:], 64)
		if err != nil {
			return nil, fmt.Errorf("--check: %q: %w", f, err)
		}
		name := f[:i]
		dot := strings.LastIndex(name, ".")
		if dot < 0 {
			return nil, fmt.Errorf("--check: %q has no group (dev, held, dev.how, …)", f)
		}
		t := g[name[:dot]]
		if t == nil || t.N == 0 {
			return nil, fmt.Errorf("--check: no questions in group %q", name[:dot])
		}
		var got float64
		switch name[dot+1:] {
		case "ndcg":
			got = t.mean()
		case "top5":
			got = float64(t.Top5) / float64(t.N)
		case "span3":
			got = float64(t.Span3) / float64(t.N)
		default:
			return nil, fmt.Errorf("--check: unknown figure %q (ndcg, top5, span3)", name[dot+1:])
		}
		if got < want {
			missed = append(missed, fmt.Sprintf("%s = %.3f, floor %.3f", name, got, want))
		}
	}
	return missed, nil
}
