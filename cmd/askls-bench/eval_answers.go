package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
)

// corpusOutside is, per corpus, the path prefixes a question set leaves
// out (goroot.jsonl: the compiler and vendored code).
var corpusOutside = map[string]string{"goroot": "cmd/,vendor/"}

// answerResult scores one retrieval-mode answer.
type answerResult struct {
	ID    string   `json:"id"`
	Span3 bool     `json:"span3"` // an expected location (same file, overlapping lines) among the first 3 citations
	File3 bool     `json:"file3"` // an expected file among the first 3 citations
	Weak  bool     `json:"weak"`  // the answer says the evidence is weak
	First []string `json:"first"` // the first 3 citations, path:start-end
	Lines int      `json:"lines"` // lines of the answer's text
	Error string   `json:"error,omitempty"`
}

// answerSummary is the figures of retrieval-mode answers on one set.
type answerSummary struct {
	Questions      int            `json:"questions"` // with expected locations
	Span3          int            `json:"span3"`
	File3          int            `json:"file3"`
	Absent         int            `json:"absent"`
	WeakAbsent     int            `json:"weak_absent"`
	WeakAnswerable int            `json:"weak_answerable"`
	MedianMS       float64        `json:"median_ms"`
	MedianLines    float64        `json:"median_lines"` // lines of an answer's text
	P90Lines       float64        `json:"p90_lines"`
	Results        []answerResult `json:"results"`
}

// scoreAnswers asks every question in retrieval mode, as `askls ask
// --no-model` does, and scores the first three citations that lie inside
// the corpus (citations under the outside prefixes are skipped).
func scoreAnswers(ctx context.Context, snap *index.Snapshot, qs []evalQuestion, outside []string) (answerSummary, error) {
	a := agent.New(agent.Config{NoModel: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	var s answerSummary
	var times, lines []float64
	for _, q := range qs {
		t0 := time.Now()
		res, err := a.Ask(ctx, snap, agent.Question{Text: q.Question}, agent.Events{})
		times = append(times, ms1(time.Since(t0)))
		r := answerResult{ID: q.ID}
		if err != nil {
			if ctx.Err() != nil {
				return s, ctx.Err()
			}
			r.Error = err.Error()
		} else {
			r.Weak = res.Weak
			r.Lines = strings.Count(res.Answer, "\n") + 1
			lines = append(lines, float64(r.Lines))
			for _, c := range res.Citations {
				if len(r.First) == 3 {
					break
				}
				if hasPrefix(c.Path, outside) {
					continue
				}
				r.First = append(r.First, fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End))
				for _, e := range q.Expected {
					if e.Path == c.Path {
						r.File3 = true
						if c.Start <= e.End && e.Start <= c.End {
							r.Span3 = true
						}
					}
				}
			}
		}
		if len(q.Expected) == 0 {
			s.Absent++
			if r.Weak {
				s.WeakAbsent++
			}
		} else {
			s.Questions++
			if r.Span3 {
				s.Span3++
			}
			if r.File3 {
				s.File3++
			}
			if r.Weak {
				s.WeakAnswerable++
			}
		}
		s.Results = append(s.Results, r)
	}
	s.MedianMS = median(times)
	s.MedianLines, s.P90Lines = median(lines), percentile(lines, 90)
	return s, nil
}

func hasPrefix(p string, prefixes []string) bool {
	for _, x := range prefixes {
		if strings.HasPrefix(p, x) {
			return true
		}
	}
	return false
}

// checkFloors tests the run against floors written as
// "top1>=0.65,top5>=0.9,span3>=0.7,file3>=0.85,weak_absent>=0.8,
// weak_answerable<=0.1" (fractions of the questions; for the baseline
// ratio, "ratio_top5>=1.5" and "ratio_span3>=1.5" compare askls with the
// plain-bleve baseline's top-5 and its first 3 hits). It returns one line per missed floor.
func checkFloors(spec string, ss []evalSummary, ans *answerSummary) ([]string, error) {
	frac := func(n, of int) float64 {
		if of == 0 {
			return 0
		}
		return float64(n) / float64(of)
	}
	values := map[string]float64{}
	if len(ss) > 0 {
		a := ss[0]
		values["top1"], values["top5"], values["top10"] = frac(a.Top1, a.Questions), frac(a.Top5, a.Questions), frac(a.Top10, a.Questions)
	}
	if ans != nil {
		values["span3"], values["file3"] = frac(ans.Span3, ans.Questions), frac(ans.File3, ans.Questions)
		values["weak_absent"], values["weak_answerable"] = frac(ans.WeakAbsent, ans.Absent), frac(ans.WeakAnswerable, ans.Questions)
	}
	if len(ss) > 1 && ss[1].Top5 > 0 {
		b := ss[1]
		values["ratio_top5"] = float64(ss[0].Top5) / float64(b.Top5)
		if ans != nil {
			values["ratio_span3"] = float64(ans.Span3) / float64(max(1, b.Overlap3))
		}
	}
	var missed []string
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		op := ">="
		i := strings.Index(f, op)
		if i < 0 {
			op = "<="
			i = strings.Index(f, op)
		}
		if i < 0 {
			return nil, fmt.Errorf("--check: %q is not NAME>=X or NAME<=X", f)
		}
		name := f[:i]
		want, err := strconv.ParseFloat(f[i+2:], 64)
		if err != nil {
			return nil, fmt.Errorf("--check: %q: %w", f, err)
		}
		got, ok := values[name]
		if !ok {
			return nil, fmt.Errorf("--check: no figure %q in this run (have top1, top5, top10, span3, file3, weak_absent, weak_answerable, ratio_top5 and ratio_span3 with --baseline)", name)
		}
		if (op == ">=" && got < want) || (op == "<=" && got > want) {
			missed = append(missed, fmt.Sprintf("%s = %.3f, floor %s%.3f", name, got, op, want))
		}
	}
	return missed, nil
}

func printAnswers(w io.Writer, a answerSummary, verbose bool) {
	fmt.Fprintf(w, "answers   span@3 %-14s file@3 %-14s weak line: absent %s, answerable %s; median %.1f ms; lines median %.0f, p90 %.0f\n",
		pct(a.Span3, a.Questions), pct(a.File3, a.Questions), pct(a.WeakAbsent, a.Absent), pct(a.WeakAnswerable, a.Questions), a.MedianMS, a.MedianLines, a.P90Lines)
	if verbose {
		fmt.Fprintln(w, "answers per question (first 3 citations):")
		for _, r := range a.Results {
			fmt.Fprintf(w, "  %-10s span %-5v file %-5v weak %-5v lines %-4d %s%s\n", r.ID, r.Span3, r.File3, r.Weak, r.Lines, strings.Join(r.First, " "), r.Error)
		}
	}
}
