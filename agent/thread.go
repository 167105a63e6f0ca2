package agent

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/thread"
)

// Thread, Turn and ThreadEvidence are the thread package's plain data:
// the agent fills them (AskThread), the thread store keeps them.
type (
	Thread         = thread.Thread
	Turn           = thread.Turn
	ThreadEvidence = thread.Evidence
)

// NewThread returns an empty thread of workspace root with a fresh id.
func NewThread(root string) *Thread { return thread.New(root) }

// AskThread answers q as the next turn of th: the model (or retrieval
// mode) sees the earlier turns and their evidence. On success the turn is
// appended to th; on an error (a cancelled ask) th is unchanged. A nil
// th is Ask.
func (a *Agent) AskThread(ctx context.Context, snap *index.Snapshot, th *Thread, q Question, ev Events) (*Result, error) {
	if snap == nil {
		return nil, errors.New("agent: no snapshot")
	}
	return a.askThread(ctx, snap, th, q, ev)
}

func (a *Agent) askThread(ctx context.Context, src tools.Source, th *Thread, q Question, ev Events) (*Result, error) {
	return a.askIn(ctx, src, th, q, ev)
}

// seed puts the thread's evidence in the run's registry under its thread
// numbers, before any tool runs.
func (r *run) seed(th *Thread) {
	r.prior = th
	for _, e := range th.Evidence {
		if id := r.reg.Add(e.Path, e.Start, e.End, e.Text, e.Symbol); id != e.N {
			// Two thread entries with one key: the thread was edited by
			// hand. Keep numbering; the duplicate is simply not citable
			// under its own number.
			r.cfg.Logger.Warn("thread evidence renumbered", "thread", th.ID, "n", e.N, "id", id)
		}
	}
	r.seeded = r.reg.Len()
}

// record appends the finished turn to the thread: the answer's citations
// are mapped to thread evidence numbers, new evidence appended.
func (r *run) record(res *Result) {
	th := r.prior
	all := r.reg.All()
	ev := make([]int, len(res.Citations))
	for i, c := range res.Citations {
		// The registry item the citation was made from: same span and
		// text. When an earlier turn's span was read again after the file
		// changed, both are there: a stale citation is the earlier one.
		id := 0
		for _, e := range all {
			if e.Path != c.Path || e.Start != c.Start || e.End != c.End || citations.Excerpt(e.Text) != c.Excerpt {
				continue
			}
			if id == 0 || (e.ID <= r.seeded) == c.Stale {
				id = e.ID
			}
			if (e.ID <= r.seeded) == c.Stale {
				break
			}
		}
		if id == 0 {
			continue
		}
		if id <= r.seeded && id <= len(th.Evidence) {
			ev[i] = id
			continue
		}
		e := all[id-1]
		h := hex.EncodeToString(e.Hash[:])
		n := 0
		for _, t := range th.Evidence {
			if t.Path == e.Path && t.Start == e.Start && t.End == e.End && t.Hash == h {
				n = t.N
				break
			}
		}
		if n == 0 {
			n = len(th.Evidence) + 1
			th.Evidence = append(th.Evidence, ThreadEvidence{N: n, Path: e.Path, Start: e.Start, End: e.End, Symbol: e.Symbol, Text: e.Text, Hash: h})
		}
		ev[i] = n
	}
	th.Turns = append(th.Turns, Turn{
		Question: res.Question, Path: r.q.Path, Line: r.q.Line, Col: r.q.Col,
		Answer: res.Answer, Mode: res.Mode, Refused: res.Refused,
		Citations: res.Citations, Evidence: ev, At: time.Now().UTC(),
	})
	th.Updated = time.Now().UTC()
}

// markerNumRE finds citation markers in an answer: [3] or [2, 5].
var markerNumRE = regexp.MustCompile(`\[(\d+(?:\s*,\s*\d+)*)\]`)

// threadNumbers rewrites a turn's answer so that its markers use thread
// evidence numbers, as the model of a later turn must cite them.
func threadNumbers(t Turn) string {
	return markerNumRE.ReplaceAllStringFunc(t.Answer, func(m string) string {
		parts := strings.Split(m[1:len(m)-1], ",")
		var out []string
		for _, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n < 1 || n > len(t.Evidence) || t.Evidence[n-1] == 0 {
				continue
			}
			out = append(out, strconv.Itoa(t.Evidence[n-1]))
		}
		if len(out) == 0 {
			return ""
		}
		return "[" + strings.Join(out, ", ") + "]"
	})
}

// historyShare is the part of the context budget earlier turns may take.
const historyShare = 2

// opening is the first messages of a model run: the system prompt, the
// earlier turns of the thread (within the budget) and the question with
// the evidence gathered so far.
func (r *run) opening() []model.Message {
	msgs := []model.Message{{Role: "system", Content: systemPrompt}}
	th := r.prior
	if th == nil || len(th.Turns) == 0 {
		return append(msgs, model.Message{Role: "user", Content: userPrompt(r.q)})
	}
	budget := r.cfg.MaxContextChars / historyShare
	hist, evText := history(th, budget)
	msgs = append(msgs, hist...)
	q := "Earlier evidence of this conversation (cite it as [n]; it is checked against the current code):\n" + evText +
		"\nFollow-up question: " + userPrompt(r.q)
	return append(msgs, model.Message{Role: "user", Content: q})
}

// history is the earlier turns as user/assistant messages and the thread's
// evidence as text, within budget characters. The newest turn and the
// text of the evidence it cited are kept whole (cut only if they alone
// pass the budget); older turns are kept whole while they fit, then
// summarised (question, the answer's first line, what it cited), then left
// out, oldest first. Evidence not cited by the newest turn is listed by
// its header only.
func history(th *Thread, budget int) ([]model.Message, string) {
	last := th.Turns[len(th.Turns)-1]
	inLast := map[int]bool{}
	for _, n := range last.Evidence {
		inLast[n] = true
	}
	var ev strings.Builder
	for _, e := range th.Evidence {
		fmt.Fprintf(&ev, "[%d] %s:%d-%d", e.N, e.Path, e.Start, e.End)
		if e.Symbol != "" {
			ev.WriteString(" " + e.Symbol)
		}
		ev.WriteByte('\n')
		if inLast[e.N] {
			for i, line := range strings.Split(strings.TrimSuffix(e.Text, "\n"), "\n") {
				fmt.Fprintf(&ev, "%6d  %s\n", e.Start+i, tools.CutLine(line))
			}
		}
	}
	evText := ev.String()
	if len(evText) > budget/2 {
		evText = cutText(evText, budget/2)
	}
	left := budget - len(evText)

	newest := []model.Message{{Role: "user", Content: last.Question}, {Role: "assistant", Content: threadNumbers(last)}}
	size := len(newest[0].Content) + len(newest[1].Content)
	if size > left {
		newest[1].Content = cutText(newest[1].Content, max(0, left-len(newest[0].Content)))
		size = left
	}
	left -= size
	var older [][]model.Message // newest first
	dropped := 0
	for i := len(th.Turns) - 2; i >= 0; i-- {
		t := th.Turns[i]
		whole := []model.Message{{Role: "user", Content: t.Question}, {Role: "assistant", Content: threadNumbers(t)}}
		if n := len(whole[0].Content) + len(whole[1].Content); n <= left {
			older = append(older, whole)
			left -= n
			continue
		}
		sum := summary(t)
		if n := len(t.Question) + len(sum); n <= left {
			older = append(older, []model.Message{{Role: "user", Content: t.Question}, {Role: "assistant", Content: sum}})
			left -= n
			continue
		}
		dropped = i + 1
		break
	}
	var out []model.Message
	if dropped > 0 {
		note := fmt.Sprintf("(%d earlier turns of this conversation are left out.)", dropped)
		out = append(out, model.Message{Role: "user", Content: note}, model.Message{Role: "assistant", Content: "Understood."})
	}
	for i := len(older) - 1; i >= 0; i-- {
		out = append(out, older[i]...)
	}
	return append(out, newest...), evText
}

// summary shortens a turn's answer: its first non-empty line (at most
// 200 bytes) and the evidence it cited.
func summary(t Turn) string {
	first := ""
	for _, line := range strings.Split(threadNumbers(t), "\n") {
		if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "**Retrieval mode") {
			first = s
			break
		}
	}
	first = cutText(first, 200)
	var cited []string
	for _, n := range t.Evidence {
		if n > 0 {
			cited = append(cited, "["+strconv.Itoa(n)+"]")
		}
	}
	s := "(summary) " + first
	if len(cited) > 0 {
		s += " Cited " + strings.Join(dedupe(cited), " ") + "."
	}
	return s
}

// cutText cuts s to at most n bytes at a rune boundary, marking the cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " …(cut)"
	if n <= len(mark) {
		return ""
	}
	k := n - len(mark)
	for k > 0 && s[k]&0xC0 == 0x80 {
		k--
	}
	return s[:k] + mark
}
