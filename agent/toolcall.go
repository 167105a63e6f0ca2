package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"
)

// call runs one tool, from the cache when the same call was made before.
// A panic in a tool becomes an error result.
func (r *run) call(ctx context.Context, name string, a tools.Args) (text string) {
	t0 := time.Now()
	r.res.Stats.ToolCalls++
	if a == nil {
		a = tools.Args{}
	}
	step := tools.Step{Tool: name, Args: map[string]any(a)}
	r.searched = append(r.searched, tools.Describe(name, a))
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.Error("tool panicked", "tool", name, "panic", p)
			text = fmt.Sprintf("error: %s failed inside askls (%v); try another call", name, p)
			step.Summary = "error: internal"
		}
		step.MS = msSince(t0)
		r.recordStep(step)
	}()
	if r.res.Stats.ToolCalls > r.cfg.MaxToolCalls {
		step.Summary = "not run: tool call budget used"
		return "not run: the tool call budget is used; answer from the evidence above"
	}
	if !tools.Known(name) {
		step.Summary = "error: unknown tool"
		return fmt.Sprintf("error: there is no tool %q; the tools are %s", name, strings.Join(tools.Names(), ", "))
	}
	key := a.Key(name)
	if n, ok := r.cache[key]; ok {
		step.Summary = fmt.Sprintf("repeat of step %d (not run again)", n)
		return fmt.Sprintf("You already made this exact call (step %d); its result is above and its evidence numbers still hold. Do not repeat calls: answer now, or try a different call.", n)
	}
	out, summary, err := r.tb.Run(ctx, name, a)
	if err != nil {
		step.Summary = "error: " + err.Error()
		return "error: " + err.Error()
	}
	r.cache[key] = len(r.res.Steps) + 1
	step.Summary = summary
	return out
}

// recordStep adds a finished step to the answer and hands it to Events.Step.
// Every tool run, asked for by the model or by retrieval, passes here.
func (r *run) recordStep(step tools.Step) {
	r.res.Steps = append(r.res.Steps, step)
	if r.ev.Step != nil {
		r.ev.Step(step)
	}
}

// msSince is the time since t0 in milliseconds, as a Step carries it.
func msSince(t0 time.Time) float64 { return float64(time.Since(t0).Microseconds()) / 1000 }

// cut shortens a tool result to room characters at a line boundary and
// makes the evidence whose header was cut off uncitable.
func (r *run) cut(text string, room int) string {
	const note = "(cut: the context budget is used; answer from what you have)\n"
	keep := room - len(note)
	if keep < 0 {
		keep = 0
	}
	if keep > len(text) {
		keep = len(text)
	}
	if i := strings.LastIndexByte(text[:keep], '\n'); i >= 0 {
		keep = i + 1
	} else {
		keep = 0
	}
	for _, id := range evidenceIDs(text[keep:]) {
		if !strings.Contains(text[:keep], fmt.Sprintf("[%d] ", id)) {
			r.reg.Forget(id)
		}
	}
	r.narrowCut(text[:keep], text[keep:])
	return text[:keep] + note
}

// narrowCut: when a cut falls inside the numbered lines of an evidence
// block, the registry keeps only the lines that were shown (the rest never
// reached the model and cannot be cited).
func (r *run) narrowCut(kept, removed string) {
	if _, ok := numberedLine(firstLine(removed)); !ok {
		return // the cut fell between blocks
	}
	id, last := 0, 0
	for _, line := range strings.Split(kept, "\n") {
		if n, ok := numberedLine(line); ok {
			last = n
			continue
		}
		var h int
		if _, err := fmt.Sscanf(line, "[%d] ", &h); err == nil {
			id, last = h, 0
		}
	}
	ev, ok := r.reg.Get(id)
	if id == 0 || !ok {
		return
	}
	if last < ev.Start {
		r.reg.Forget(id)
		return
	}
	lines := strings.SplitAfter(ev.Text, "\n")
	r.reg.Narrow(id, last, strings.Join(lines[:min(last-ev.Start+1, len(lines))], ""))
}

// numberedLine parses a shown line of evidence, "%6d  text".
func numberedLine(line string) (int, bool) {
	t := strings.TrimLeft(line, " ")
	i := strings.Index(t, "  ")
	if i <= 0 || len(line)-len(t)+i < 6 {
		return 0, false
	}
	n := 0
	for _, c := range t[:i] {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// evidenceIDs finds the "[n] " headers at line starts of a tool result.
func evidenceIDs(text string) []int {
	var ids []int
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "[") {
			continue
		}
		var id int
		if _, err := fmt.Sscanf(line, "[%d] ", &id); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}
