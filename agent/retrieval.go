package agent

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
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
	defs := r.definitions()
	hits = append(append(r.atCursor(), defs...), hits...)

	var b strings.Builder
	b.WriteString(retrievalHeader + "\n")
	r.writeUses(ctx, &b, defs)
	for _, g := range groupHits(hits) {
		f, err := r.tb.file(g.path)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n", g.path)
		for _, h := range g.hits {
			h, declared := r.narrowToSymbol(f, h)
			start, end, lang := docOrHead(f, h)
			text, ok := f.Lines(start, end)
			if !ok {
				continue
			}
			id := r.reg.Add(h.Path, start, end, text, h.Symbol)
			label := h.Symbol
			if label != "" && h.Kind != "" && !strings.HasPrefix(label, h.Kind+" ") {
				// A file's head chunk is already named "package config".
				label = h.Kind + " " + label
			}
			switch {
			case label == "":
				label = fmt.Sprintf("lines %d-%d", h.Start, h.End)
			case declared > 0:
				// A window of a long unit: it does not start at the name.
				label = fmt.Sprintf("%s (declared at line %d), lines %d-%d", label, declared, h.Start, h.End)
			default:
				label = fmt.Sprintf("%s, line %d", label, h.Start)
			}
			fmt.Fprintf(&b, "\n- %s [%d]\n\n", label, id)
			text = shown(text)
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
	if r.reg.Len() == 0 {
		// Nothing to cite: the refusal below is the whole answer. Streamed,
		// this text would reach the reader as a header over no entries and
		// the how-to line twice.
		r.mute = true
	}
	r.startText(b.String())
	r.mute = false
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
			start := docStart(f, s.Line)
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

// atCursor is the innermost symbol around the cursor (Question.Path and
// Line), as a hit that starts at its doc comment: "this" in a question
// usually means it.
func (r *run) atCursor() []index.Hit {
	if r.q.Path == "" || r.q.Line < 1 {
		return nil
	}
	syms, err := r.src.Outline(r.q.Path)
	if err != nil {
		return nil
	}
	var best *index.Symbol
	for i, s := range syms {
		end := max(s.EndLine, s.Line)
		if s.Line <= r.q.Line && r.q.Line <= end && (best == nil || end-s.Line < max(best.EndLine, best.Line)-best.Line) {
			best = &syms[i]
		}
	}
	if best == nil {
		return nil
	}
	f, err := r.tb.file(best.Path)
	if err != nil {
		return nil
	}
	label := best.Name
	if best.Container != "" {
		label = best.Container + "." + best.Name
	}
	return []index.Hit{{Path: best.Path, Start: docStart(f, best.Line), End: max(best.EndLine, best.Line), Symbol: label, Kind: best.Kind, Language: best.Language}}
}

// narrowToSymbol starts a hit at the declaration of the symbol it is named
// after. A hit may span several small units (the index merges them, and
// keeps a matching neighbour in the range) while it is named after the one
// that matched best: context.go:376-413 is named removeChild, whose
// declaration is at line 399, after parentCancelCtx's. Showing the range's
// first lines would put parentCancelCtx's code under removeChild's name.
// When the hit is a window inside a long unit declared before it,
// declared is that declaration's line (else 0).
func (r *run) narrowToSymbol(f *citations.LineIndex, h index.Hit) (_ index.Hit, declared int) {
	if h.Symbol == "" {
		return h, 0
	}
	syms, err := r.src.Outline(h.Path)
	if err != nil {
		return h, 0
	}
	for _, s := range syms {
		name := s.Name
		if s.Container != "" && h.Symbol != s.Name {
			name = s.Container + "." + s.Name
		}
		if name != h.Symbol {
			continue
		}
		if s.Line < h.Start && h.Start <= max(s.EndLine, s.Line) {
			declared = s.Line
			continue // a later symbol of that name may start inside the hit
		}
		if s.Line < h.Start || s.Line > h.End {
			continue
		}
		start := max(docStart(f, s.Line), h.Start)
		if start == h.Start {
			return h, 0
		}
		h.Start, h.End = start, min(max(s.EndLine, s.Line), h.End)
		return h, 0
	}
	return h, declared
}

// docStart is the first line of the comment block right above line.
func docStart(f *citations.LineIndex, line int) int {
	for line > 1 {
		text, _ := f.Lines(line-1, line-1)
		if !isCommentLine(text) {
			break
		}
		line--
	}
	return line
}

// maxUses caps the call sites shown per definition.
const maxUses = 8

// writeUses lists where the first two defined functions are called in
// their own folder tree ("Name(" by grep, tests left out), each line cited.
func (r *run) writeUses(ctx context.Context, b *strings.Builder, defs []index.Hit) {
	done := map[string]bool{}
	for _, d := range defs {
		name := d.Symbol
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if done[name] || len(done) == 2 || (d.Kind != "func" && d.Kind != "method") {
			continue
		}
		done[name] = true
		dir := path.Dir(d.Path)
		glob := dir + "/**"
		if dir == "." {
			glob = ""
		}
		pattern := `\b` + regexp.QuoteMeta(name) + `\(`
		t0 := time.Now()
		ms, err := r.src.Grep(ctx, pattern, glob, 50)
		var uses []index.GrepMatch
		for _, m := range ms {
			if strings.HasSuffix(m.Path, "_test.go") || (m.Path == d.Path && m.Line >= d.Start && m.Line <= d.End) {
				continue
			}
			uses = append(uses, m)
		}
		// Calls in the definition's own folder first.
		sort.SliceStable(uses, func(i, j int) bool {
			return path.Dir(uses[i].Path) == dir && path.Dir(uses[j].Path) != dir
		})
		if len(uses) > maxUses {
			uses = uses[:maxUses]
		}
		step := Step{Tool: "grep", Args: map[string]any{"pattern": pattern, "path_glob": glob}, Summary: fmt.Sprintf("%d matches", len(ms)), MS: float64(time.Since(t0).Microseconds()) / 1000}
		if err != nil {
			step.Summary = "error: " + err.Error()
		}
		r.res.Steps = append(r.res.Steps, step)
		r.res.Stats.ToolCalls++
		r.searched = append(r.searched, describeCall("grep", args{"pattern": pattern, "path_glob": glob}))
		if r.ev.Step != nil {
			r.ev.Step(step)
		}
		if len(uses) == 0 {
			continue
		}
		where := dir
		if glob == "" {
			where = "the workspace"
		}
		fmt.Fprintf(b, "\n### Calls of %s in %s (tests left out)\n\n", name, where)
		for _, m := range uses {
			f, err := r.tb.file(m.Path)
			if err != nil {
				continue
			}
			text, ok := f.Lines(m.Line, m.Line)
			if !ok {
				continue
			}
			id := r.reg.Add(m.Path, m.Line, m.Line, text, "")
			code := strings.TrimSpace(cutLine(strings.TrimSuffix(text, "\n")))
			fence := "`"
			for strings.Contains(code, fence) {
				fence += "`"
			}
			fmt.Fprintf(b, "- %s:%d: %s%s%s [%d]\n", m.Path, m.Line, fence, code, fence, id)
		}
	}
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

// docOrHead picks the lines to cite for a hit: its leading comment and the
// line after it (the declaration) when the chunk starts with a comment, else
// its first lines. lang is the code fence's language.
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
		if show > maxDocLines {
			show = maxShownLines
		}
	}
	return start, start + show - 1, langOf(h)
}

// A doc comment of up to maxDocLines is cited whole with its declaration
// and shown as its first lines, "…" and the declaration; a longer one is
// cut at maxShownLines.
const (
	maxShownLines = 8
	maxDocLines   = 40
)

// shown is the cited text as a retrieval answer shows it: at most
// maxShownLines, the middle of a long doc comment elided so that the
// declaration stays in view.
func shown(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) <= maxShownLines {
		return text
	}
	head := lines[:maxShownLines-2]
	indent := head[len(head)-1][:len(head[len(head)-1])-len(strings.TrimLeft(head[len(head)-1], " \t"))]
	return strings.Join(head, "\n") + "\n" + indent + "…\n" + lines[len(lines)-1] + "\n"
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
