package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// retrievalHits is how many search hits a retrieval answer shows.
const retrievalHits = 10

// retrievalHeader opens every retrieval answer, so that it is never taken
// for a model's answer.
const retrievalHeader = "**Retrieval mode: no model wrote this.** The code that best matches the question, ranked; each entry is cited."

// retrieval answers without a model: the best search hits for the
// question, grouped by file and symbol, each with its doc comment or first
// lines, cited with the same [n] scheme and checks as a model's answer.
// why (may be empty) says why no model was used.
func (r *run) retrieval(ctx context.Context, why string) (*Result, error) {
	r.res.Mode, r.res.Model = ModeRetrieval, ""
	t0 := time.Now()
	r.searched = append(r.searched, describeCall("search_code", args{"query": r.q.Text}))
	hits, err := r.src.Search(ctx, r.q.Text, retrievalHits, index.Filter{})
	step := Step{Tool: "search_code", Args: map[string]any{"query": r.q.Text, "limit": retrievalHits}, MS: float64(time.Since(t0).Microseconds()) / 1000}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		step.Summary = "error: " + err.Error()
	} else {
		step.Summary = fmt.Sprintf("%d hits", len(hits))
	}
	r.res.Steps = append(r.res.Steps, step)
	r.res.Stats.ToolCalls = 1
	if r.ev.Step != nil {
		r.ev.Step(step)
	}

	var b strings.Builder
	b.WriteString(retrievalHeader + "\n")
	for _, g := range groupHits(hits) {
		f, err := r.tb.file(g.path)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n", g.path)
		for _, h := range g.hits {
			start, end, lang := docOrHead(f, h)
			text, ok := f.Lines(start, end)
			if !ok {
				continue
			}
			id := r.reg.Add(h.Path, start, end, text, h.Symbol)
			label := h.Symbol
			if label == "" {
				label = fmt.Sprintf("lines %d-%d", h.Start, h.End)
			} else if h.Kind != "" {
				label = h.Kind + " " + label
			}
			fmt.Fprintf(&b, "\n- %s, line %d [%d]\n\n", label, h.Start, id)
			fence := "```"
			for strings.Contains(text, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "%s%s\n%s%s\n", fence, lang, text, fence)
		}
	}
	b.WriteString("\n" + howToSynthesize(r.cfg))
	if why != "" {
		b.WriteString(" (" + why + ")")
	}
	b.WriteString("\n")
	r.startText(b.String())
	res := r.finish(why)
	if res.Refused {
		res.Answer = "No code in the workspace matched the question. " + r.searchedLine() + "\n\n" + howToSynthesize(r.cfg)
	}
	return res, nil
}

// howToSynthesize is the one line that says how to get model answers.
func howToSynthesize(cfg Config) string {
	return fmt.Sprintf("_For a synthesized answer, run Ollama with a tool-calling model: `ollama pull %s` then `ollama serve`; `askls doctor` checks the setup._", cfg.Model)
}

type hitGroup struct {
	path string
	hits []index.Hit
}

// groupHits groups hits by file in rank order of each file's best hit, and
// drops a hit that overlaps a better one of the same file.
func groupHits(hits []index.Hit) []hitGroup {
	var groups []hitGroup
	at := map[string]int{}
	for _, h := range hits {
		i, ok := at[h.Path]
		if !ok {
			i = len(groups)
			at[h.Path] = i
			groups = append(groups, hitGroup{path: h.Path})
		}
		overlap := false
		for _, o := range groups[i].hits {
			if h.Start <= o.End && o.Start <= h.End {
				overlap = true
			}
		}
		if !overlap {
			groups[i].hits = append(groups[i].hits, h)
		}
	}
	return groups
}

// docOrHead picks the lines to show for a hit: its leading comment and the
// line after it (the declaration) when the chunk starts with a comment, else
// its first lines; at most 8 lines. lang is the code fence's language.
func docOrHead(f *citations.LineIndex, h index.Hit) (int, int, string) {
	n := f.Count()
	start := clamp(h.Start, 1, max(n, 1))
	end := clamp(h.End, start, max(n, 1))
	text, _ := f.Lines(start, end)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	show := min(len(lines), 6)
	comment := 0
	for comment < len(lines) && isCommentLine(lines[comment]) {
		comment++
	}
	if comment > 0 {
		show = min(len(lines), comment+1) // the comment and the declaration
		if show > 8 {
			show = 8
		}
	}
	return start, start + show - 1, langOf(h)
}

func isCommentLine(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "/*") ||
		strings.HasPrefix(s, "*") || strings.HasPrefix(s, "--") || strings.HasPrefix(s, `"""`)
}

func langOf(h index.Hit) string {
	if h.Language != "" {
		return h.Language
	}
	if i := strings.LastIndexByte(h.Path, '.'); i >= 0 {
		return h.Path[i+1:]
	}
	return ""
}
