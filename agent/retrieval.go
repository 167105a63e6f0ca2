package agent

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode"

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
	r.res.Stats.ToolCalls++
	if r.ev.Step != nil {
		r.ev.Step(step)
	}
	// Definitions of the identifiers the question names come first.
	hits = append(r.definitions(), hits...)

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

// maxDefinitions caps the definitions a retrieval answer puts first.
const maxDefinitions = 4

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// identifiers picks the words of a question that look like code:
// qualified (bufio.Scanner), with an underscore, camel case
// (DetectContentType, ServeHTTP), or capitalised after the first word.
func identifiers(q string) []string {
	var out []string
	seen := map[string]bool{}
	for i, w := range identRE.FindAllString(q, -1) {
		upperInside := strings.ContainsFunc(w[1:], unicode.IsUpper)
		code := strings.Contains(w, ".") || strings.Contains(strings.Trim(w, "_"), "_") || upperInside ||
			(i > 0 && unicode.IsUpper(rune(w[0])))
		if code && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// definitions finds the declarations of the identifiers in the question
// (exact names; "pkg.Name" and "Type.Method" narrow by folder or
// container), as hits that start at the doc comment.
func (r *run) definitions() []index.Hit {
	var out []index.Hit
	for _, id := range identifiers(r.q.Text) {
		parts := strings.Split(id, ".")
		name, qual := parts[len(parts)-1], ""
		if len(parts) > 1 {
			qual = parts[len(parts)-2]
		}
		t0 := time.Now()
		syms := r.src.Symbols(name, 20)
		found := 0
		for _, s := range syms {
			if s.Name != name || strings.HasSuffix(s.Path, "_test.go") || strings.Contains(s.Path, "testdata/") {
				continue
			}
			if qual != "" && s.Container != qual && path.Base(path.Dir(s.Path)) != qual {
				continue
			}
			f, err := r.tb.file(s.Path)
			if err != nil {
				continue
			}
			start := s.Line
			for start > 1 {
				text, _ := f.Lines(start-1, start-1)
				if !isCommentLine(text) {
					break
				}
				start--
			}
			label := s.Name
			if s.Container != "" {
				label = s.Container + "." + s.Name
			}
			out = append(out, index.Hit{Path: s.Path, Start: start, End: max(s.EndLine, s.Line), Symbol: label, Kind: s.Kind, Language: s.Language})
			found++
			if len(out) == maxDefinitions {
				break
			}
		}
		step := Step{Tool: "find_symbol", Args: map[string]any{"name": id}, Summary: fmt.Sprintf("%d definitions", found), MS: float64(time.Since(t0).Microseconds()) / 1000}
		r.res.Steps = append(r.res.Steps, step)
		r.res.Stats.ToolCalls++
		r.searched = append(r.searched, describeCall("find_symbol", args{"name": id}))
		if r.ev.Step != nil {
			r.ev.Step(step)
		}
		if len(out) == maxDefinitions {
			break
		}
	}
	return out
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
