package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/benchkit"
)

// askFigures is the model round trip of `askls-bench bench --ask`: whole answers
// through a running Ollama, split into the model's reported time and
// askls's own (tools, prompt assembly, citation checks, transport), beside
// the same questions in retrieval mode (no model) as the baseline.
type askFigures struct {
	Model         string  `json:"model"`
	Questions     int     `json:"questions"`
	AnswerP50     float64 `json:"answer_p50_ms"`
	ModelP50      float64 `json:"model_p50_ms"`
	PromptP50     float64 `json:"model_prompt_p50_ms"`
	EvalP50       float64 `json:"model_eval_p50_ms"`
	OwnPerHopP50  float64 `json:"askls_per_hop_p50_ms"`
	OwnPerHopP99  float64 `json:"askls_per_hop_p99_ms"`
	HopsMean      float64 `json:"hops_mean"`
	PromptTokens  float64 `json:"prompt_tokens_mean"`
	EvalTokens    float64 `json:"eval_tokens_mean"`
	RetrievalP50  float64 `json:"retrieval_p50_ms"`
	Refused       int     `json:"refused"`
	CitationsMean float64 `json:"citations_mean"`
}

// benchQuestions are the natural-language entries of benchkit.QueryMix.
func benchQuestions() []string {
	var qs []string
	for _, q := range benchkit.QueryMix {
		if strings.Contains(q, " ") && !strings.HasPrefix(q, `"`) {
			qs = append(qs, q)
		}
	}
	return qs
}

// benchAsk answers each question rounds times with the model in cfg, after
// one warm-up answer that loads the model (not measured). It fails when
// the model cannot be reached: a retrieval-mode figure must never pass for
// a model's.
func benchAsk(ctx context.Context, ix *index.Index, cfg agent.Config, rounds int) (askFigures, error) {
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	model := agent.New(cfg)
	f := askFigures{Model: model.Config().Model}
	questions := benchQuestions()

	warm, err := model.Ask(ctx, ix.Snapshot(), agent.Question{Text: questions[0]}, agent.Events{})
	if err != nil {
		return f, fmt.Errorf("bench --ask: %w", err)
	}
	if warm.Mode != "model" {
		return f, fmt.Errorf("bench --ask: no model answered (%s); run 'askls doctor'", warm.Notice)
	}

	retrieval := agent.New(agent.Config{NoModel: true, Logger: cfg.Logger})
	var answer, modelMS, prompt, eval, perHop, ret []float64
	var hops, promptTok, evalTok, cites int
	for r := 0; r < rounds; r++ {
		for _, q := range questions {
			t := time.Now()
			if _, err := retrieval.Ask(ctx, ix.Snapshot(), agent.Question{Text: q}, agent.Events{}); err != nil {
				return f, fmt.Errorf("bench --ask: retrieval %q: %w", q, err)
			}
			ret = append(ret, ms1(time.Since(t)))

			t = time.Now()
			res, err := model.Ask(ctx, ix.Snapshot(), agent.Question{Text: q}, agent.Events{})
			if err != nil {
				return f, fmt.Errorf("bench --ask: %q: %w", q, err)
			}
			wall := ms1(time.Since(t))
			if res.Mode != "model" {
				return f, fmt.Errorf("bench --ask: the model stopped answering (%s)", res.Notice)
			}
			answer = append(answer, wall)
			modelMS = append(modelMS, res.Stats.ModelMS)
			prompt = append(prompt, res.Stats.PromptMS)
			eval = append(eval, res.Stats.EvalMS)
			if res.Stats.Hops > 0 {
				perHop = append(perHop, (wall-res.Stats.ModelMS)/float64(res.Stats.Hops))
			}
			hops += res.Stats.Hops
			promptTok += res.Stats.PromptTokens
			evalTok += res.Stats.EvalTokens
			cites += len(res.Citations)
			if res.Refused {
				f.Refused++
			}
		}
	}
	n := float64(len(answer))
	f.Questions = len(answer)
	f.AnswerP50, f.ModelP50 = percentile(answer, 50), percentile(modelMS, 50)
	f.PromptP50, f.EvalP50 = percentile(prompt, 50), percentile(eval, 50)
	f.OwnPerHopP50, f.OwnPerHopP99 = percentile(perHop, 50), percentile(perHop, 99)
	f.HopsMean, f.PromptTokens, f.EvalTokens = float64(hops)/n, float64(promptTok)/n, float64(evalTok)/n
	f.CitationsMean = float64(cites) / n
	f.RetrievalP50 = percentile(ret, 50)
	return f, nil
}

func printAskBench(w io.Writer, f askFigures) {
	fmt.Fprintf(w, "model round trip (%s, %d answers):\n", f.Model, f.Questions)
	fmt.Fprintf(w, "  whole answer p50            %10.1f ms\n", f.AnswerP50)
	fmt.Fprintf(w, "  model time p50 (Ollama)     %10.1f ms  (prompt %.1f ms, generation %.1f ms)\n", f.ModelP50, f.PromptP50, f.EvalP50)
	fmt.Fprintf(w, "  askls's own cost per hop    %10.1f ms p50, %.1f ms p99\n", f.OwnPerHopP50, f.OwnPerHopP99)
	fmt.Fprintf(w, "  hops, prompt/eval tokens    %10.1f, %.0f / %.0f per answer\n", f.HopsMean, f.PromptTokens, f.EvalTokens)
	fmt.Fprintf(w, "  citations per answer        %10.1f  (%d refused)\n", f.CitationsMean, f.Refused)
	fmt.Fprintf(w, "  baseline: retrieval mode    %10.1f ms p50  (answer / retrieval = %.1f×)\n", f.RetrievalP50, f.AnswerP50/max(f.RetrievalP50, 0.001))
}
