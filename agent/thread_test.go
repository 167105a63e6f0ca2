package agent

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/citations"

	"github.com/askls/askls/internal/modeltest"
)

func copySource(m memSource) memSource {
	out := memSource{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// askIn asks q as the next turn of th and fails the test on an error.
func askIn(t *testing.T, a *Agent, src tools.Source, th *Thread, q string) *Result {
	t.Helper()
	res, err := a.askIn(context.Background(), src, th, Question{Text: q}, Events{})
	if err != nil {
		t.Fatalf("ask %q: %v", q, err)
	}
	return res
}

// A follow-up's model sees the first turn and its evidence under the
// thread's numbers, and may cite that evidence without searching again.
func TestThreadFollowUpCitesEarlierEvidence(t *testing.T) {
	var first int
	f := newFakeOllama(t,
		calls("search_code", `{"query":"reverse rune"}`),
		func(req *modeltest.Request) reply {
			first = modeltest.FirstEvidence(req.LastTool())
			return reply{Chunks: []chunk{text(fmt.Sprintf("Reverse swaps runes [%d].", first))}}
		},
		func(req *modeltest.Request) reply {
			return reply{Chunks: []chunk{text("It reverses rune by rune, as said before [1].")}}
		},
	)
	a := testAgent(f, Config{})
	th := NewThread("/ws")
	r1 := askIn(t, a, project, th, "how is a string reversed?")
	checkResult(t, r1, project)
	if len(th.Turns) != 1 || len(th.Evidence) != 1 || th.Turns[0].Evidence[0] != 1 {
		t.Fatalf("thread after turn 1: %+v", th)
	}
	r2 := askIn(t, a, project, th, "and what does that do with emoji?")
	checkResult(t, r2, project)
	if len(r2.Citations) != 1 || r2.Citations[0].Path != r1.Citations[0].Path || r2.Citations[0].Start != r1.Citations[0].Start || r2.Citations[0].Stale {
		t.Fatalf("turn 2 citations %+v, turn 1 %+v", r2.Citations, r1.Citations)
	}
	if len(th.Turns) != 2 || th.Turns[1].Evidence[0] != 1 || len(th.Evidence) != 1 {
		t.Fatalf("turn 2 evidence %v, thread evidence %d", th.Turns[1].Evidence, len(th.Evidence))
	}
	reqs := f.Requests()
	last := reqs[len(reqs)-1]
	var all strings.Builder
	for _, m := range last.Messages {
		all.WriteString(m.Role + ": " + m.Content + "\n")
	}
	for _, want := range []string{"how is a string reversed?", "Reverse swaps runes [1].", "[1] " + r1.Citations[0].Path, "and what does that do with emoji?"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("follow-up request lacks %q:\n%s", want, all.String())
		}
	}
}

// Evidence whose lines changed between turns comes back stale when a
// follow-up cites it.
func TestThreadStaleEvidence(t *testing.T) {
	f := newFakeOllama(t,
		calls("search_code", `{"query":"reverse rune"}`),
		func(req *modeltest.Request) reply {
			return reply{Chunks: []chunk{text(fmt.Sprintf("Reverse swaps runes [%d].", modeltest.FirstEvidence(req.LastTool())))}}
		},
		say("As before [1]."),
	)
	a := testAgent(f, Config{})
	src := copySource(project)
	th := NewThread("/ws")
	askIn(t, a, src, th, "how is a string reversed?")
	p := th.Evidence[0].Path
	src[p] = strings.Replace(src[p], "r[i], r[j] = r[j], r[i]", "r[j], r[i] = r[i], r[j]", 1)
	if src[p] == project[p] {
		t.Fatal("the edit did not apply")
	}
	r2 := askIn(t, a, src, th, "is that still so?")
	if len(r2.Citations) != 1 || !r2.Citations[0].Stale {
		t.Fatalf("want one stale citation, got %+v", r2.Citations)
	}
}

// A thread far longer than the context budget still fits: the newest turn
// is whole, older ones summarised or left out, and the request stays
// within MaxContextChars.
func TestThreadLongerThanBudget(t *testing.T) {
	f := newFakeOllama(t, say("Still [1]."))
	cfg := Config{NumCtx: 2048}
	a := testAgent(f, cfg)
	budget := a.Config().MaxContextChars
	th := NewThread("/ws")
	th.Evidence = []ThreadEvidence{{N: 1, Path: "util/strings.go", Start: 3, End: 10, Symbol: "Reverse", Text: lines(project["util/strings.go"], 3, 10)}}
	th.Evidence[0].Hash = hashHex(th.Evidence[0].Text)
	for i := 0; i < 40; i++ {
		th.Turns = append(th.Turns, Turn{
			Question: fmt.Sprintf("question number %d about Reverse?", i),
			Answer:   fmt.Sprintf("Answer %d: ", i) + strings.Repeat("Reverse swaps runes from both ends. ", 12) + "[1]",
			Mode:     ModeModel, Evidence: []int{1},
		})
	}
	res := askIn(t, a, project, th, "and the newest?")
	if len(res.Citations) != 1 || res.Citations[0].Stale {
		t.Fatalf("citations %+v", res.Citations)
	}
	req := f.Requests()[0]
	total := 0
	var all strings.Builder
	for _, m := range req.Messages {
		total += len(m.Content)
		all.WriteString(m.Content + "\n")
	}
	if total > budget {
		t.Errorf("request is %d characters, the budget %d", total, budget)
	}
	s := all.String()
	if !strings.Contains(s, th.Turns[39].Answer) {
		t.Errorf("the newest turn is not whole")
	}
	if strings.Contains(s, "question number 0 ") {
		t.Errorf("the oldest turn was kept in a %d-character budget", budget)
	}
	if !strings.Contains(s, "earlier turns of this conversation are left out") {
		t.Errorf("no note of the turns left out")
	}
	if len(th.Turns) != 41 {
		t.Errorf("thread has %d turns", len(th.Turns))
	}
}

// Retrieval mode follows up on the previous answer's main symbol: "who
// calls that?" lists the callers of the function the first turn defined,
// and says which earlier citation it builds on.
func TestThreadRetrievalFollowUp(t *testing.T) {
	a := testAgent(nil, Config{NoModel: true})
	th := NewThread("/ws")
	r1 := askIn(t, a, project, th, "what does `Reverse` do?")
	checkResult(t, r1, project)
	if r1.Citations[0].Symbol != "Reverse" {
		t.Fatalf("turn 1 first citation %+v", r1.Citations[0])
	}
	r2 := askIn(t, a, project, th, "who calls that?")
	checkResult(t, r2, project)
	if !strings.Contains(r2.Answer, "Following up on `Reverse` from the previous answer [") {
		t.Errorf("no builds-on line:\n%s", r2.Answer)
	}
	if !strings.Contains(r2.Answer, "### Calls of `util.Reverse` in the workspace") {
		t.Errorf("no callers of Reverse:\n%s", r2.Answer)
	}
	found := false
	for _, c := range r2.Citations {
		if c.Path == "util/use.go" && c.Start == 5 {
			found = true
		}
	}
	if !found {
		t.Errorf("the call in util/use.go:5 is not cited: %+v", r2.Citations)
	}
	if len(th.Turns) != 2 {
		t.Errorf("thread has %d turns", len(th.Turns))
	}
	for i, n := range th.Turns[1].Evidence {
		if n < 1 || n > len(th.Evidence) {
			t.Errorf("turn 2 citation %d has thread evidence %d of %d", i+1, n, len(th.Evidence))
		}
	}
}

// A cancelled follow-up leaves the thread as it was.
func TestThreadCancelledLeavesThread(t *testing.T) {
	a := testAgent(nil, Config{NoModel: true})
	th := NewThread("/ws")
	askIn(t, a, project, th, "what does `Reverse` do?")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.askIn(ctx, project, th, Question{Text: "who calls that?"}, Events{}); err == nil {
		t.Fatal("a cancelled ask gave an answer")
	}
	if len(th.Turns) != 1 {
		t.Errorf("thread has %d turns after a cancelled ask", len(th.Turns))
	}
}

func lines(s string, start, end int) string {
	ls := strings.SplitAfter(s, "\n")
	return strings.Join(ls[start-1:end], "")
}

func hashHex(text string) string {
	h := citations.Hash(text)
	return hex.EncodeToString(h[:])
}

// New evidence of a follow-up is numbered after the thread's: the tool
// output of turn 2 starts at [2] when turn 1 cited one span, and the
// thread keeps one number per span across turns.
func TestThreadEvidenceNumbersUnique(t *testing.T) {
	var second int
	f := newFakeOllama(t,
		calls("search_code", `{"query":"reverse rune"}`),
		func(req *modeltest.Request) reply {
			return reply{Chunks: []chunk{text(fmt.Sprintf("Reverse swaps runes [%d].", modeltest.FirstEvidence(req.LastTool())))}}
		},
		calls("read_file", `{"path":"util/use.go","start_line":3,"end_line":6}`),
		func(req *modeltest.Request) reply {
			second = modeltest.FirstEvidence(req.LastTool())
			return reply{Chunks: []chunk{text(fmt.Sprintf("Backwards calls it [%d], which reverses [1].", second))}}
		},
	)
	a := testAgent(f, Config{})
	th := NewThread("/ws")
	askIn(t, a, project, th, "how is a string reversed?")
	r2 := askIn(t, a, project, th, "who uses it?")
	checkResult(t, r2, project)
	if second != 2 {
		t.Errorf("turn 2's first new evidence is [%d], want [2] (after the thread's [1])", second)
	}
	if len(th.Evidence) != 2 || th.Evidence[1].Path != "util/use.go" || th.Evidence[1].N != 2 {
		t.Fatalf("thread evidence %+v", th.Evidence)
	}
	if got := th.Turns[1].Evidence; len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("turn 2 cites thread evidence %v, want [2 1]", got)
	}
	if r2.Citations[0].Path != "util/use.go" || r2.Citations[1].Path != th.Evidence[0].Path {
		t.Errorf("turn 2 citations %+v", r2.Citations)
	}
}
