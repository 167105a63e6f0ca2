package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/askls/askls/agent/model"
	"github.com/askls/askls/agent/retrieval"
	"github.com/askls/askls/agent/tools"
)

// retrieval answers without a model (package retrieval), with the same
// [n] scheme and checks as a model's answer; why (may be empty) says why
// no model was used.
func (r *run) retrieval(ctx context.Context, why string) (*Result, error) {
	r.res.Mode, r.res.Model = ModeRetrieval, ""
	ans, err := retrieval.Write(ctx, retrieval.Ask{
		Text: r.q.Text, Path: r.q.Path, Line: r.q.Line, Prior: r.prior,
		Src: r.src, Box: r.tb, Registry: r.reg, Record: r.recordCall,
	})
	if err != nil {
		return nil, err
	}
	r.res.Weak = ans.Weak
	var b strings.Builder
	b.WriteString(ans.Text)
	b.WriteString("\n" + howToSynthesize(r.cfg))
	if why != "" {
		b.WriteString(" (" + why + ")")
	}
	b.WriteString("\n")
	if r.reg.Len() == r.seeded {
		// Nothing to cite: the refusal below is the whole answer. Streamed,
		// this text would reach the reader as a header over no entries and
		// the how-to line twice.
		r.mute = true
	}
	r.startText(b.String())
	r.mute = false
	res := r.finish(why)
	if res.Refused {
		res.Weak = false
		res.Answer = "No code in the workspace matched the question. " + r.searchedLine() + "\n\n" + howToSynthesize(r.cfg)
	}
	return res, nil
}

// recordCall notes a tool call that retrieval made: a step of the answer, a
// call against the budget, a line of the refusal's "Searched:".
func (r *run) recordCall(step tools.Step, searched string) {
	r.recordStep(step)
	r.res.Stats.ToolCalls++
	r.searched = append(r.searched, searched)
}

// howToSynthesize is the one line that says how to get model answers.
func howToSynthesize(cfg Config) string {
	if cfg.Provider == model.ProviderOpenAI {
		return "_For a synthesized answer, start the OpenAI-compatible server at " + cfg.BaseURL + " with a tool-calling model; `askls doctor --provider openai` checks the setup._"
	}
	return fmt.Sprintf("_For a synthesized answer, run Ollama with a tool-calling model: `ollama pull %s` then `ollama serve`; `askls doctor` checks the setup._", cfg.Model)
}
