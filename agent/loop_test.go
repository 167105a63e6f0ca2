package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/modeltest"
)

// project is the workspace of the loop tests.
var project = memSource{
	"server/server.go": `package server

// Handler answers HTTP requests.
type Handler struct {
	Name string
}

// ServeHTTP writes the greeting.
func (h *Handler) ServeHTTP(w Writer, r *Request) {
	w.Write("hello " + h.Name)
}

// sniff guesses the content type of a body.
func sniff(body []byte) string {
	if len(body) == 0 {
		return "text/plain"
	}
	return "application/octet-stream"
}
`,
	"util/strings.go": `package util

// Reverse reverses a string rune by rune: héllo 😀 works.
func Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
`,
	"util/use.go": `package util

// Backwards returns s backwards.
func Backwards(s string) string {
	return Reverse(s)
}
`,
}

// countingSource counts searches, to see that repeated calls are not re-run.
type countingSource struct {
	memSource
	searches atomic.Int32
}

func (c *countingSource) Search(ctx context.Context, q string, limit int, f index.Filter) ([]index.Hit, error) {
	c.searches.Add(1)
	return c.memSource.Search(ctx, q, limit, f)
}

func testAgent(f *modeltest.Server, cfg Config) *Agent {
	if f != nil {
		cfg.Provider = fakeKind
		cfg.Host, cfg.BaseURL = f.URL, f.URL
	}
	if cfg.Model == "" {
		cfg.Model = "qwen3:4b"
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(cfg)
}

// asked runs one Ask and checks the invariants every result must keep.
type asked struct {
	res    *Result
	err    error
	deltas string
	steps  []tools.Step
}

func ask(t *testing.T, a *Agent, src tools.Source, question string) asked {
	t.Helper()
	var out asked
	out.res, out.err = a.ask(context.Background(), src, Question{Text: question}, Events{
		Delta: func(s string) { out.deltas += s },
		Step:  func(s tools.Step) { out.steps = append(out.steps, s) },
	})
	if out.err != nil {
		t.Fatalf("Ask: %v", out.err)
	}
	checkResult(t, out.res, src)
	return out
}

var (
	pathRefRE = regexp.MustCompile(`\[[\w./-]+:L?\d+`)
	fenceRE   = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
)

// checkResult: no invalid citation reaches a result. Every marker in the
// answer names a citation, every citation is used, numbered 1..k, points at
// lines that exist with the text that was returned, and is not stale.
func checkResult(t *testing.T, res *Result, src tools.Source) {
	t.Helper()
	if res == nil {
		t.Fatal("nil result")
	}
	prose := fenceRE.ReplaceAllString(res.Answer, "")
	used := map[int]bool{}
	// The markers a reader sees: fences read as CommonMark reads them (a
	// block fenced with ```` may hold ```, which fenceRE would take for
	// its end).
	for _, m := range citations.Markers(res.Answer) {
		for _, n := range m.Nums {
			if n < 1 || n > len(res.Citations) {
				t.Errorf("answer has marker [%d] with %d citations:\n%s", n, len(res.Citations), res.Answer)
				continue
			}
			used[n] = true
		}
	}
	if pathRefRE.MatchString(prose) {
		t.Errorf("a path reference survived in the answer:\n%s", res.Answer)
	}
	for _, p := range checkLabels(res.Answer, res.Citations, res.Mode == ModeRetrieval, src.Content) {
		t.Errorf("%s:\n%s", p, res.Answer)
	}
	for i, c := range res.Citations {
		if c.N != i+1 {
			t.Errorf("citation %d numbered %d", i, c.N)
		}
		if !used[c.N] {
			t.Errorf("citation %d is not in the answer:\n%s", c.N, res.Answer)
		}
		content, err := src.Content(c.Path)
		if err != nil {
			t.Errorf("citation %v: %v", c, err)
			continue
		}
		text, ok := citations.Lines(content, c.Start, c.End)
		if !ok || c.Stale {
			t.Errorf("citation %v: lines exist %v, stale %v", c, ok, c.Stale)
		}
		if c.Excerpt != citations.Excerpt(text) {
			t.Errorf("citation %v: excerpt %q is not the cited text", c, c.Excerpt)
		}
		if got := string(content[c.StartByte:c.EndByte]); got+"\n" != text {
			t.Errorf("citation %v: byte span %q", c, got)
		}
	}
	if res.Refused == (len(res.Citations) > 0) && !strings.HasPrefix(res.Answer, notFoundPrefix) {
		t.Errorf("refused=%v with %d citations", res.Refused, len(res.Citations))
	}
}

func TestNormalConversation(t *testing.T) {
	f := newFakeOllama(t,
		calls("search_code", `{"query":"content type sniff"}`),
		calls("read_file", `{"path":"server/server.go","start_line":13,"end_line":19}`),
		func(req *modeltest.Request) reply {
			id := firstEvidence(lastTool(req))
			return say(fmt.Sprintf("`sniff` guesses the type [%d]; an empty body is text/plain [%d, %d].", id, id, id))(req)
		},
	)
	got := ask(t, testAgent(f, Config{}), project, "how is the content type guessed?")
	res := got.res
	if res.Mode != ModeModel || res.Model != "qwen3:4b" || res.Refused {
		t.Fatalf("mode %q model %q refused %v: %s", res.Mode, res.Model, res.Refused, res.Answer)
	}
	if want := "`sniff` guesses the type [1]; an empty body is text/plain [1]."; res.Answer != want {
		t.Errorf("answer %q, want %q", res.Answer, want)
	}
	if got.deltas != res.Answer {
		t.Errorf("streamed %q, answer %q", got.deltas, res.Answer)
	}
	if len(res.Citations) != 1 || res.Citations[0].Path != "server/server.go" || res.Citations[0].Start != 13 || res.Citations[0].End != 19 {
		t.Errorf("citations %+v", res.Citations)
	}
	if len(res.Steps) != 2 || res.Steps[0].Tool != "search_code" || res.Steps[1].Summary != "server/server.go:13-19" || len(got.steps) != 2 {
		t.Errorf("steps %+v", res.Steps)
	}
	if s := res.Stats; fakeKind == model.ProviderOllama && (s.ModelMS != 3*1500 || s.PromptMS != 3*400 || s.EvalMS != 3*900) {
		t.Errorf("model durations: %+v, want Ollama's reported durations summed over 3 turns", s)
	}
	if s := res.Stats; s.Hops != 3 || s.ToolCalls != 2 || s.PromptTokens != 2700 || s.EvalTokens != 180 || s.MS <= 0 {
		t.Errorf("stats %+v", s)
	}
	reqs := f.Requests()
	first := reqs[0]
	if len(first.Tools) != len(tools.Specs()) {
		t.Errorf("first request: %d tools", len(first.Tools))
	}
	var wire struct {
		Options   map[string]any `json:"options"`
		Think     *bool          `json:"think"`
		KeepAlive any            `json:"keep_alive"`
		Stream    *bool          `json:"stream"`
		// OpenAI-compatible
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Temperature *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(first.Raw, &wire); err != nil {
		t.Fatal(err)
	}
	switch fakeKind {
	case model.ProviderOllama:
		if wire.Options["num_ctx"] != float64(DefaultNumCtx) || wire.Think == nil || *wire.Think ||
			wire.KeepAlive != "10m0s" || wire.Stream == nil || !*wire.Stream {
			t.Errorf("first request: %s", first.Raw)
		}
	case model.ProviderOpenAI:
		if wire.Stream == nil || !*wire.Stream || !wire.StreamOptions.IncludeUsage || wire.Temperature == nil || *wire.Temperature != 0 {
			t.Errorf("first request: %s", first.Raw)
		}
	}
	if first.Messages[0].Role != "system" || !strings.Contains(first.Messages[0].Content, "Cite only numbers the tools printed") {
		t.Errorf("no system prompt")
	}
	m := reqs[1].Messages[len(reqs[1].Messages)-1]
	if m.Role != "tool" || m.ToolName != "search_code" || m.ToolCallID != "call_0" || !strings.Contains(m.Content, "server/server.go:") {
		t.Errorf("tool message %+v", m)
	}
}

func TestCitingMoreThanWasRead(t *testing.T) {
	var six []string
	for i := 0; i < 6; i++ {
		six = append(six, "read_file", fmt.Sprintf(`{"path":"server/server.go","start_line":%d,"end_line":%d}`, 1+3*i, 3+3*i))
	}
	f := newFakeOllama(t, calls(six...), say("Start [1], middle [6], invented [7] and [0], range [5-9]."))
	res := ask(t, testAgent(f, Config{}), project, "q").res
	if want := "Start [1], middle [2], invented and, range [3, 2]."; res.Answer != want {
		t.Errorf("answer %q, want %q", res.Answer, want)
	}
	if len(res.Citations) != 3 {
		t.Errorf("citations %v", res.Citations)
	}
}

func TestCitingAFileNeverRead(t *testing.T) {
	f := newFakeOllama(t,
		calls("read_file", `{"path":"server/server.go","start_line":1,"end_line":10}`),
		say("The handler [server/server.go:8-10] and the keys [secret/keys.go:3] and [util/strings.go:4]."),
	)
	res := ask(t, testAgent(f, Config{}), project, "q").res
	if want := "The handler [1] and the keys and."; res.Answer != want {
		t.Errorf("answer %q, want %q", res.Answer, want)
	}
}

func TestLinesPastTheEnd(t *testing.T) {
	f := newFakeOllama(t,
		calls("read_file", `{"path":"server/server.go","start_line":500,"end_line":510}`),
		func(req *modeltest.Request) reply {
			if got := lastTool(req); !strings.Contains(got, "has 19 lines") || !strings.HasPrefix(got, "error:") {
				t.Errorf("read past the end: %q", got)
			}
			return calls("read_file", `{"path":"server/server.go","start_line":15,"end_line":900}`)(req)
		},
		func(req *modeltest.Request) reply {
			if got := lastTool(req); !strings.Contains(got, "server/server.go:15-19 (file has 19 lines)") {
				t.Errorf("clamped read: %q", got)
			}
			return say("Past [server/server.go:500-510] the end [server/server.go:18-30] is [1] [2].")(req)
		},
	)
	res := ask(t, testAgent(f, Config{}), project, "q").res
	if want := "Past the end is [1]."; res.Answer != want {
		t.Errorf("answer %q, want %q", res.Answer, want)
	}
	if c := res.Citations[0]; c.Start != 15 || c.End != 19 {
		t.Errorf("citation %v", c)
	}
}

func TestMalformedArgumentsAndUnknownTool(t *testing.T) {
	f := newFakeOllama(t,
		calls("read_file", `{"path":"server/server.go","start_line":"abc"}`,
			"search_code", `{"query":["a","b"]}`,
			"grep", `{}`,
			"grep", `{"pattern":"([a-"}`,
			"read_file", `{"path":"../../etc/passwd"}`,
			"read_file", `{"path":"/etc/passwd"}`,
			"outline", `{"path":"server.go"}`,
			"delete_file", `{"path":"x"}`),
		func(req *modeltest.Request) reply {
			var results []string
			for _, m := range req.Messages {
				if m.Role == "tool" {
					results = append(results, m.Content)
				}
			}
			wants := []string{"must be an integer", "must be a string", `missing argument "pattern"`, "bad query",
				"outside the workspace", "outside the workspace", "files with that name: server/server.go", "no tool \"delete_file\""}
			if len(results) != len(wants) {
				t.Fatalf("%d tool results", len(results))
			}
			for i, w := range wants {
				if !strings.HasPrefix(results[i], "error:") || !strings.Contains(results[i], w) {
					t.Errorf("result %d = %q, want an error with %q", i, results[i], w)
				}
			}
			return calls("outline", `{"path":"server/server.go"}`)(req)
		},
		func(req *modeltest.Request) reply {
			return say(fmt.Sprintf("ServeHTTP greets [%d].", evidenceIDs(lastTool(req))[1]))(req)
		},
	)
	got := ask(t, testAgent(f, Config{}), project, "q")
	if got.res.Refused || got.res.Citations[0].Start != 9 {
		t.Errorf("answer %q citations %v", got.res.Answer, got.res.Citations)
	}
	if len(got.res.Steps) != 9 || !strings.HasPrefix(got.res.Steps[7].Summary, "error: unknown tool") {
		t.Errorf("steps %+v", got.res.Steps)
	}
}

func TestSameCallTenTimes(t *testing.T) {
	var script []turn
	for i := 0; i < 10; i++ {
		script = append(script, calls("search_code", `{"query":"sniff","limit":3}`))
	}
	script = append(script, say("It is sniff [1]."))
	f := newFakeOllama(t, script...)
	src := &countingSource{memSource: project}
	res := ask(t, testAgent(f, Config{MaxHops: 20, MaxToolCalls: 20}), src, "q").res
	if n := src.searches.Load(); n != 1 {
		t.Errorf("search ran %d times", n)
	}
	if len(res.Steps) != 10 || !strings.Contains(res.Steps[9].Summary, "repeat of step 1") {
		t.Errorf("steps %+v", res.Steps)
	}
	if msg := lastTool(f.Requests()[5]); !strings.Contains(msg, "already made this exact call") {
		t.Errorf("repeat note %q", msg)
	}
	if res.Answer != "It is sniff [1]." {
		t.Errorf("answer %q", res.Answer)
	}
}

func TestToolCallWrittenAsText(t *testing.T) {
	tests := []struct{ name, content string }{
		{"plain", `{"name": "search_code", "arguments": {"query": "reverse rune", "limit": "5"}}`},
		{"fenced with parameters", "```json\n{\"name\": \"search_code\", \"parameters\": {\"query\": \"reverse rune\"}}\n```"},
		{"function wrapper, string arguments", `<tool_call>{"function": {"name": "search_code", "arguments": "{\"query\": \"reverse rune\"}"}}</tool_call>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeOllama(t, say(tt.content), func(req *modeltest.Request) reply {
				return say(fmt.Sprintf("Reverse works on runes [%d].", firstEvidence(lastTool(req))))(req)
			})
			got := ask(t, testAgent(f, Config{}), project, "q")
			if len(got.res.Steps) != 1 || got.res.Steps[0].Tool != "search_code" {
				t.Fatalf("steps %+v", got.res.Steps)
			}
			if got.res.Answer != "Reverse works on runes [1]." || got.deltas != got.res.Answer {
				t.Errorf("answer %q deltas %q", got.res.Answer, got.deltas)
			}
			if got.res.Citations[0].Path != "util/strings.go" {
				t.Errorf("citations %v", got.res.Citations)
			}
		})
	}
	t.Run("after prose on its own line", func(t *testing.T) {
		f := newFakeOllama(t, say("Let me look.\n{\"name\": \"search_code\",\n \"arguments\": {\"query\": \"reverse rune\"}}"), func(req *modeltest.Request) reply {
			return say(fmt.Sprintf("It reverses runes [%d].", firstEvidence(lastTool(req))))(req)
		})
		got := ask(t, testAgent(f, Config{}), project, "q")
		if len(got.res.Steps) != 1 || got.res.Answer != "It reverses runes [1]." || got.deltas != "Let me look.\n\nIt reverses runes [1]." {
			t.Errorf("steps %v answer %q deltas %q", got.res.Steps, got.res.Answer, got.deltas)
		}
	})
	t.Run("code and JSON that are no call are answer text", func(t *testing.T) {
		answer := "Reverse [1]:\n```go\nr := []rune(s)\n```\n{\"not\": \"a call\"}"
		f := newFakeOllama(t, calls("search_code", `{"query":"reverse"}`), say(answer))
		got := ask(t, testAgent(f, Config{}), project, "q")
		if got.res.Answer != answer || got.deltas != answer {
			t.Errorf("answer %q deltas %q", got.res.Answer, got.deltas)
		}
	})
	t.Run("unknown tool name is text", func(t *testing.T) {
		f := newFakeOllama(t, say(`{"name": "rm", "arguments": {"path": "/"}}`), say(`{"name": "rm", "arguments": {"path": "/"}}`))
		got := ask(t, testAgent(f, Config{}), project, "q")
		if len(got.res.Steps) != 0 || !got.res.Refused || strings.Contains(got.res.Answer, "rm") {
			t.Errorf("steps %v refused %v deltas %q", got.res.Steps, got.res.Refused, got.deltas)
		}
	})
}

func TestModelThatNeverStops(t *testing.T) {
	var script []turn
	for i := 0; i < 3; i++ {
		script = append(script, calls("search_code", fmt.Sprintf(`{"query":"word%d sniff"}`, i)))
	}
	// The last turn has no tools; the model calls one anyway, as text and natively.
	script = append(script, func(req *modeltest.Request) reply {
		if len(req.Tools) != 0 {
			t.Errorf("the final request offers tools")
		}
		if m := req.Messages[len(req.Messages)-1]; m.Role != "user" || !strings.Contains(m.Content, "3 model turns used") {
			t.Errorf("final prompt %+v", m)
		}
		return reply{Chunks: []chunk{toolCall("grep", `{"pattern":"x"}`)}}
	})
	f := newFakeOllama(t, script...)
	got := ask(t, testAgent(f, Config{MaxHops: 3}), project, "q")
	res := got.res
	if !res.Refused || res.Stats.Hops != 4 || len(res.Steps) != 3 || !strings.Contains(res.Answer, `search_code("word0 sniff")`) {
		t.Errorf("refused %v hops %d steps %d answer %q", res.Refused, res.Stats.Hops, len(res.Steps), res.Answer)
	}

	// With a tool call budget, and an answer at the end.
	f = newFakeOllama(t, calls("search_code", `{"query":"a"}`, "search_code", `{"query":"b"}`, "search_code", `{"query":"sniff"}`),
		func(req *modeltest.Request) reply {
			if len(req.Tools) != 0 || !strings.Contains(req.Messages[len(req.Messages)-1].Content, "2 tool calls used") {
				t.Errorf("no final prompt after the tool budget")
			}
			return say("Done [1].")(req)
		})
	res = ask(t, testAgent(f, Config{MaxToolCalls: 2}), project, "q").res
	if res.Steps[2].Summary != "not run: tool call budget used" || res.Refused {
		t.Errorf("steps %+v answer %q", res.Steps, res.Answer)
	}
}

func TestFullContextWindowEndsTools(t *testing.T) {
	f := newFakeOllama(t, calls("search_code", `{"query":"sniff"}`), func(req *modeltest.Request) reply {
		if len(req.Tools) != 0 || !strings.Contains(req.Messages[len(req.Messages)-1].Content, "context window (1000 tokens) is nearly full") {
			t.Errorf("no final prompt after a full window: tools %d", len(req.Tools))
		}
		return say("Sniff [1].")(req)
	})
	f.Prompt = 950
	res := ask(t, testAgent(f, Config{NumCtx: 1000, MaxContextChars: 100000}), project, "q").res
	if res.Answer != "Sniff [1]." || res.Stats.PromptTokens != 1900 {
		t.Errorf("answer %q stats %+v", res.Answer, res.Stats)
	}
}

func TestContextBudgetCutsEvidence(t *testing.T) {
	f := newFakeOllama(t, calls("grep", `{"pattern":"."}`), func(req *modeltest.Request) reply {
		tool := lastTool(req)
		ids := evidenceIDs(tool)
		if !strings.Contains(tool, "(cut: the context budget is used") || len(ids) == 0 {
			t.Fatalf("not cut: %q", tool)
		}
		return say(fmt.Sprintf("Kept [%d], cut [%d] and [%d].", ids[0], ids[len(ids)-1]+1, 25))(req)
	})
	res := ask(t, testAgent(f, Config{MaxContextChars: len(systemPrompt) + 400}), project, "q").res
	if res.Answer != "Kept [1], cut and." {
		t.Errorf("answer %q", res.Answer)
	}
}

func TestStreamDies(t *testing.T) {
	t.Run("after some text", func(t *testing.T) {
		f := newFakeOllama(t, calls("search_code", `{"query":"sniff"}`), func(req *modeltest.Request) reply {
			return reply{Chunks: []chunk{text("Sniff guesses [1"), text("] and [9] then")}, Die: true}
		})
		got := ask(t, testAgent(f, Config{}), project, "q")
		if got.res.Answer != "Sniff guesses [1] and then" || !strings.Contains(got.res.Notice, "ended early") || got.res.Mode != ModeModel {
			t.Errorf("answer %q notice %q", got.res.Answer, got.res.Notice)
		}
		if got.deltas != got.res.Answer {
			t.Errorf("deltas %q", got.deltas)
		}
	})
	t.Run("error line mid-stream", func(t *testing.T) {
		f := newFakeOllama(t, calls("search_code", `{"query":"sniff"}`), func(req *modeltest.Request) reply {
			return reply{Chunks: []chunk{text("It is [1] and [2")}, MidError: "an error was encountered while running the model: unexpected EOF"}
		})
		got := ask(t, testAgent(f, Config{}), project, "q")
		if !strings.HasPrefix(got.res.Answer, "It is [1]") || !strings.Contains(got.res.Notice, "unexpected EOF") {
			t.Errorf("answer %q notice %q", got.res.Answer, got.res.Notice)
		}
	})
	t.Run("before anything", func(t *testing.T) {
		f := newFakeOllama(t, func(*modeltest.Request) reply { return reply{Die: true} })
		got := ask(t, testAgent(f, Config{}), project, "sniff content type")
		if got.res.Mode != ModeRetrieval || got.res.Notice == "" {
			t.Errorf("mode %q notice %q", got.res.Mode, got.res.Notice)
		}
	})
}

func TestAnswerWithoutSearchingIsNudgedOnce(t *testing.T) {
	f := newFakeOllama(t,
		say("Reverse surely uses strings.Builder [1]."),
		func(req *modeltest.Request) reply {
			if m := req.Messages[len(req.Messages)-1]; m.Role != "user" || m.Content != nudgePrompt {
				t.Errorf("no nudge: %+v", m)
			}
			return calls("find_symbol", `{"name":"Reverse"}`)(req)
		},
		say("Reverse converts to runes [1]."),
	)
	got := ask(t, testAgent(f, Config{}), project, "q")
	if got.res.Answer != "Reverse converts to runes [1]." || got.deltas != "Reverse surely uses strings.Builder.\n\nReverse converts to runes [1]." {
		t.Errorf("answer %q deltas %q", got.res.Answer, got.deltas)
	}
	// A model that keeps answering without tools gets a refusal.
	f = newFakeOllama(t, say("It is [1]."), say("Still [1]."))
	got = ask(t, testAgent(f, Config{}), project, "q")
	if !got.res.Refused || !strings.Contains(got.res.Answer, "Nothing was searched") || strings.Contains(got.res.Answer, "Still") {
		t.Errorf("answer %q deltas %q", got.res.Answer, got.deltas)
	}
	// Its own NOT FOUND is kept, with what was searched.
	f = newFakeOllama(t, say("NOT FOUND: no billing code."), say("NOT FOUND: there is no billing code."))
	got = ask(t, testAgent(f, Config{}), project, "q")
	if !got.res.Refused || got.res.Answer != "NOT FOUND: there is no billing code.\n\nNothing was searched." {
		t.Errorf("answer %q", got.res.Answer)
	}
}

func TestCancelMidStream(t *testing.T) {
	f := newFakeOllama(t,
		calls("search_code", `{"query":"sniff"}`),
		func(*modeltest.Request) reply {
			return reply{Chunks: []chunk{text("The answer is [1]")}, Block: true}
		})
	a := testAgent(f, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Now()
	// The first answer text to arrive says the stream is open and read
	// from: cancel then.
	var once sync.Once
	res, err := a.ask(ctx, project, Question{Text: "q"}, Events{Delta: func(string) { once.Do(cancel) }})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("res %v err %v", res, err)
	}
	select {
	case <-f.Cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream was not closed")
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

func TestTimeoutAnswersWithWhatItHas(t *testing.T) {
	f := newFakeOllama(t, func(*modeltest.Request) reply {
		return reply{Chunks: []chunk{text("Partial")}, Block: true}
	})
	res, err := testAgent(f, Config{Timeout: 300 * time.Millisecond}).ask(context.Background(), project, Question{Text: "q"}, Events{})
	if err != nil || !strings.Contains(res.Notice, "time limit") || !res.Refused {
		t.Fatalf("res %+v err %v", res, err)
	}
}

// panicSource panics in Search, as a bug in a tool would.
type panicSource struct{ memSource }

func (panicSource) Search(context.Context, string, int, index.Filter) ([]index.Hit, error) {
	panic("boom")
}

func TestToolPanicIsAToolError(t *testing.T) {
	f := newFakeOllama(t, calls("search_code", `{"query":"sniff"}`), func(req *modeltest.Request) reply {
		if got := lastTool(req); !strings.HasPrefix(got, "error: search_code failed inside askls (boom)") {
			t.Errorf("tool result %q", got)
		}
		return calls("read_file", `{"path":"server/server.go","start_line":13,"end_line":14}`)(req)
	}, say("Sniff [1]."))
	got := ask(t, testAgent(f, Config{}), panicSource{project}, "q")
	if got.res.Answer != "Sniff [1]." || got.res.Steps[0].Summary != "error: internal" {
		t.Errorf("answer %q steps %+v", got.res.Answer, got.res.Steps)
	}
}
