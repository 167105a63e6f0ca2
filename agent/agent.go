package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

// Agent answers questions. Create it with New; it is safe for concurrent
// use.
type Agent struct {
	cfg     Config
	client  *api.Client // nil when the host is malformed
	hostErr error
}

// New returns an Agent with cfg's defaults filled in. It does not contact
// Ollama.
func New(cfg Config) *Agent {
	cfg = cfg.withDefaults()
	a := &Agent{cfg: cfg}
	u, err := hostURL(cfg.Host)
	if err != nil {
		a.hostErr = err
		return a
	}
	a.cfg.Host = u.String()
	a.client = api.NewClient(u, &http.Client{})
	return a
}

// Config returns the configuration in use, defaults filled in.
func (a *Agent) Config() Config { return a.cfg }

// Ask answers q from snap. It returns an error only when no answer can be
// given at all: ctx ended (ctx.Err()). Model failures fall back to
// retrieval mode, with Result.Notice saying why.
func (a *Agent) Ask(ctx context.Context, snap *index.Snapshot, q Question, ev Events) (*Result, error) {
	if snap == nil {
		return nil, errors.New("agent: no snapshot")
	}
	return a.ask(ctx, snap, q, ev)
}

func (a *Agent) ask(ctx context.Context, src source, q Question, ev Events) (*Result, error) {
	r := newRun(a, src, q, ev)
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("agent: empty question")
	}
	if a.cfg.NoModel {
		return r.retrieval(ctx, "")
	}
	if a.hostErr != nil {
		return r.retrieval(ctx, a.hostErr.Error())
	}
	res, err := r.model(ctx)
	var unavailable *unavailableError
	if errors.As(err, &unavailable) {
		return r.retrieval(ctx, unavailable.Error())
	}
	return res, err
}

// run is the state of one Ask.
type run struct {
	a     *Agent
	cfg   Config
	src   source
	q     Question
	ev    Events
	reg   *citations.Registry
	tb    *toolbox
	rw    *citations.Rewriter
	res   *Result
	start time.Time

	answer     strings.Builder // rewritten answer text so far
	rawText    bool            // some answer text was written
	tail       string          // the last two bytes of the raw answer text
	mute       bool            // answer text that was streamed already
	lastPrompt int             // prompt_eval_count of the last turn
	cache      map[string]int  // call key -> step number (1-based)
	chars      int             // characters of the conversation
	searched   []string        // the calls made, for a refusal
}

func newRun(a *Agent, src source, q Question, ev Events) *run {
	reg := citations.NewRegistry()
	tb := newToolbox(src, reg)
	r := &run{
		a: a, cfg: a.cfg, src: src, q: q, ev: ev,
		reg:   reg,
		tb:    tb,
		rw:    citations.NewRewriter(reg, tb.content),
		start: time.Now(),
		cache: map[string]int{},
	}
	r.res = &Result{ID: newID(), Question: q.Text, Steps: []Step{}, Citations: []citations.Citation{}}
	return r
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// unavailableError means the model could not be used at all: fall back to
// retrieval mode.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }

// classify turns a model error into the message a user needs, and whether
// the model is unusable (rather than failing mid-answer).
func (r *run) classify(err error) (string, bool) {
	var se api.StatusError
	if errors.As(err, &se) {
		switch {
		case se.StatusCode == http.StatusNotFound:
			return fmt.Sprintf("model %s is not available on %s: run `ollama pull %s`", r.cfg.Model, r.cfg.Host, r.cfg.Model), true
		case se.StatusCode == http.StatusBadRequest && strings.Contains(se.ErrorMessage, "does not support tools"):
			return fmt.Sprintf("model %s cannot call tools: run `ollama pull %s` and use --model %s", r.cfg.Model, DefaultModel, DefaultModel), true
		default:
			return fmt.Sprintf("Ollama at %s answered %d: %s", r.cfg.Host, se.StatusCode, se.ErrorMessage), true
		}
	}
	if strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "no such host") ||
		strings.Contains(err.Error(), "dial tcp") {
		return fmt.Sprintf("no Ollama server at %s: run `ollama serve` (or set OLLAMA_HOST)", r.cfg.Host), true
	}
	return fmt.Sprintf("the model failed: %v", err), false
}

// emit sends rewritten answer text to the answer and the Delta event.
func (r *run) emit(text string) {
	if text == "" {
		return
	}
	r.tail = (r.tail + text)[max(0, len(r.tail)+len(text)-2):]
	out := r.rw.Write(text)
	r.deliver(out)
}

func (r *run) deliver(out string) {
	if out == "" {
		return
	}
	r.answer.WriteString(out)
	if r.ev.Delta != nil && !r.mute {
		r.ev.Delta(out)
	}
}

// startText begins a turn's text in the answer, separated from an earlier
// turn's text by a blank line.
func (r *run) startText(text string) {
	if r.rawText {
		sep := "\n\n"
		switch {
		case strings.HasSuffix(r.tail, "\n\n"):
			sep = ""
		case strings.HasSuffix(r.tail, "\n"):
			sep = "\n"
		}
		text = sep + strings.TrimLeft(text, " \t\r\n")
	} else {
		text = strings.TrimLeft(text, " \t\r\n")
	}
	if text == "" {
		return
	}
	r.rawText = true
	r.emit(text)
}

// model runs the tool loop with the model.
func (r *run) model(parent context.Context) (*Result, error) {
	ctx, cancel := context.WithTimeout(parent, r.cfg.Timeout)
	defer cancel()
	soft := r.start.Add(r.cfg.Timeout * 3 / 4)

	r.res.Mode, r.res.Model = ModeModel, r.cfg.Model
	msgs := []api.Message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: userPrompt(r.q)},
	}
	for _, m := range msgs {
		r.chars += len(m.Content)
	}
	defs := toolDefs()
	stream := true
	var keep *api.Duration
	if d, err := parseKeepAlive(r.cfg.KeepAlive); err == nil {
		keep = &api.Duration{Duration: d}
	}
	final, nudged := "", false
	for hop := 0; ; hop++ {
		if final == "" {
			switch {
			case hop >= r.cfg.MaxHops:
				final = fmt.Sprintf("%d model turns used", r.cfg.MaxHops)
			case r.res.Stats.ToolCalls >= r.cfg.MaxToolCalls:
				final = fmt.Sprintf("%d tool calls used", r.cfg.MaxToolCalls)
			case r.chars >= r.cfg.MaxContextChars:
				final = "context budget used"
			case r.lastPrompt >= r.cfg.NumCtx*9/10:
				// Ollama drops early messages silently when the prompt
				// passes num_ctx: its own count is the truth.
				final = fmt.Sprintf("the model's context window (%d tokens) is nearly full", r.cfg.NumCtx)
			case time.Now().After(soft):
				final = "time budget nearly used"
			}
			if final != "" {
				p := finalPrompt(final)
				msgs = append(msgs, api.Message{Role: "user", Content: p})
				r.chars += len(p)
			}
		}
		req := &api.ChatRequest{
			Model:     r.cfg.Model,
			Messages:  msgs,
			Stream:    &stream,
			KeepAlive: keep,
			Think:     &api.ThinkValue{Value: r.cfg.Think},
			Options:   map[string]any{"num_ctx": r.cfg.NumCtx, "temperature": 0},
		}
		if final == "" {
			req.Tools = defs
		}
		t, err := r.turn(ctx, req)
		r.res.Stats.Hops++
		if err != nil {
			if parent.Err() != nil {
				return nil, parent.Err()
			}
			if ctx.Err() != nil {
				return r.finish(fmt.Sprintf("time limit of %s reached", r.cfg.Timeout)), nil
			}
			msg, unusable := r.classify(err)
			if unusable && hop == 0 && !r.rawText {
				return nil, &unavailableError{msg}
			}
			if !r.rawText && r.reg.Len() == 0 {
				return nil, &unavailableError{msg}
			}
			return r.finish("the model stream ended early: " + msg), nil
		}
		calls := t.calls
		if len(calls) == 0 && t.quiet != "" {
			// An answer before any evidence: nothing in it can be cited.
			// Ask once for a search; else it becomes a refusal.
			if !nudged && final == "" && hop+1 < r.cfg.MaxHops {
				nudged = true
				msgs = append(msgs, api.Message{Role: "assistant", Content: t.content}, api.Message{Role: "user", Content: nudgePrompt})
				r.chars += len(t.content) + len(nudgePrompt)
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(t.quiet), notFoundPrefix) {
				r.mute = true        // already streamed
				r.startText(t.quiet) // the model's own refusal says what it searched
				r.mute = false
			}
		}
		if len(calls) == 0 || final != "" {
			return r.finish(""), nil
		}
		msgs = append(msgs, api.Message{Role: "assistant", Content: t.content, ToolCalls: t.native})
		r.chars += len(t.content)
		for _, c := range calls {
			if parent.Err() != nil {
				return nil, parent.Err()
			}
			text := r.call(ctx, c.name, c.args)
			if room := r.cfg.MaxContextChars - r.chars; len(text) > room {
				text = r.cut(text, room)
			}
			r.chars += len(text)
			msgs = append(msgs, api.Message{Role: "tool", Content: text, ToolName: c.name, ToolCallID: c.id})
		}
	}
}

// call is one tool call the model asked for.
type call struct {
	id, name string
	args     args
}

// turnResult is one model turn.
type turnResult struct {
	content string         // the assistant text of the turn
	native  []api.ToolCall // tool calls as the API returned them
	calls   []call         // native calls, or calls written as text
	quiet   string         // answer text held back because no evidence existed yet
}

// turn streams one model turn. Answer text goes out through the citation
// rewriter as it arrives, except from a line that may begin a tool call
// written as text ("{", "```json", "<tool_call>"): that is held until the
// turn ends, then run as tool calls if it is one, else emitted. Text
// written before any evidence exists is streamed (through a scratch
// rewriter: it can cite nothing) but kept out of the answer: it is either
// a preamble to tool calls or an uncitable answer (turnResult.quiet).
func (r *run) turn(ctx context.Context, req *api.ChatRequest) (turnResult, error) {
	var t turnResult
	var content strings.Builder
	quiet := r.reg.Len() == 0
	scratch := citations.NewRewriter(r.reg, r.tb.content)
	quietSent, quietTail := false, ""
	quietDelta := func(out string) {
		if out != "" && r.ev.Delta != nil {
			r.ev.Delta(out)
			quietSent = true
			quietTail = (quietTail + out)[max(0, len(quietTail)+len(out)-2):]
		}
	}
	sent, started, done := 0, false, false
	send := func(text string) {
		if text == "" {
			return
		}
		if quiet {
			t.quiet += text
			quietDelta(scratch.Write(text))
			return
		}
		if !started {
			if strings.TrimSpace(text) == "" {
				return // leading blank lines: keep them back
			}
			started = true
			r.startText(text)
			return
		}
		r.emit(text)
	}
	err := r.a.client.Chat(ctx, req, func(resp api.ChatResponse) error {
		if d := resp.Message.Content; d != "" {
			content.WriteString(d)
			c := content.String()
			hold := holdFrom(c, sent)
			if !started && strings.TrimSpace(c[sent:hold]) == "" {
				return ctx.Err() // nothing but blanks yet: wait
			}
			send(c[sent:hold])
			sent = hold
		}
		t.native = append(t.native, resp.Message.ToolCalls...)
		if resp.Done {
			done = true
			r.res.Stats.PromptTokens += resp.PromptEvalCount
			r.lastPrompt = resp.PromptEvalCount
			r.res.Stats.EvalTokens += resp.EvalCount
			r.cfg.Logger.Debug("model turn", "done_reason", resp.DoneReason,
				"prompt_tokens", resp.PromptEvalCount, "eval_tokens", resp.EvalCount,
				"prompt_ms", resp.PromptEvalDuration.Milliseconds(), "eval_ms", resp.EvalDuration.Milliseconds())
		}
		return ctx.Err()
	})
	if err == nil && !done {
		// The client returns nil when the stream breaks off: a turn is
		// whole only with its done chunk.
		err = errors.New("the stream ended without its last chunk")
		if ctx.Err() != nil {
			err = ctx.Err()
		}
	}
	t.content = content.String()
	for _, tc := range t.native {
		t.calls = append(t.calls, call{id: tc.ID, name: tc.Function.Name, args: args(tc.Function.Arguments.ToMap())})
	}
	rest := t.content[sent:]
	if quiet && len(t.calls) > 0 {
		t.quiet = ""
	}
	if strings.TrimSpace(rest) != "" {
		if tcs, ok := parseTextCalls(rest); ok {
			if len(t.calls) == 0 {
				for _, tc := range tcs {
					t.calls = append(t.calls, call{name: tc.name, args: tc.args})
				}
			}
		} else if err == nil || !isCancel(ctx) {
			send(rest)
		}
	}
	if quiet {
		quietDelta(scratch.Flush())
		if sep := strings.Repeat("\n", 2-min(2, len(quietTail)-len(strings.TrimRight(quietTail, "\n")))); quietSent && sep != "" {
			r.ev.Delta(sep) // what follows replaces it
		}
		if len(t.calls) > 0 {
			t.quiet = ""
		}
	}
	return t, err
}

// holdFrom returns how much of content may be emitted now: up to the first
// line start at or after sent whose rest may still be a tool call written
// as text.
func holdFrom(content string, sent int) int {
	for i := sent; i <= len(content); {
		if (i == 0 || content[i-1] == '\n') && mayBeTextCall(content[i:]) {
			return i
		}
		j := strings.IndexByte(content[i:], '\n')
		if j < 0 {
			return len(content)
		}
		i += j + 1
	}
	return len(content)
}

func isCancel(ctx context.Context) bool { return ctx.Err() != nil }

// call runs one tool, from the cache when the same call was made before.
// A panic in a tool becomes an error result.
func (r *run) call(ctx context.Context, name string, a args) (text string) {
	t0 := time.Now()
	r.res.Stats.ToolCalls++
	if a == nil {
		a = args{}
	}
	step := Step{Tool: name, Args: map[string]any(a)}
	r.searched = append(r.searched, describeCall(name, a))
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.Error("tool panicked", "tool", name, "panic", p)
			text = fmt.Sprintf("error: %s failed inside askls (%v); try another call", name, p)
			step.Summary = "error: internal"
		}
		step.MS = float64(time.Since(t0).Microseconds()) / 1000
		r.res.Steps = append(r.res.Steps, step)
		if r.ev.Step != nil {
			r.ev.Step(step)
		}
	}()
	if r.res.Stats.ToolCalls > r.cfg.MaxToolCalls {
		step.Summary = "not run: tool call budget used"
		return "not run: the tool call budget is used; answer from the evidence above"
	}
	t, ok := toolByName(name)
	if !ok {
		step.Summary = "error: unknown tool"
		return fmt.Sprintf("error: there is no tool %q; the tools are %s", name, strings.Join(toolNames(), ", "))
	}
	key := a.key(name)
	if n, ok := r.cache[key]; ok {
		step.Summary = fmt.Sprintf("repeat of step %d (not run again)", n)
		return fmt.Sprintf("You already made this exact call (step %d); its result is above and its evidence numbers still hold. Do not repeat calls: answer now, or try a different call.", n)
	}
	out, summary, err := t.run(r.tb, ctx, a)
	if err != nil {
		step.Summary = "error: " + err.Error()
		return "error: " + err.Error()
	}
	r.cache[key] = len(r.res.Steps) + 1
	step.Summary = summary
	return out
}

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
	return text[:keep] + note
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

// describeCall is a short form of a call for a refusal's "searched" list.
func describeCall(name string, a args) string {
	var parts []string
	for _, k := range []string{"query", "pattern", "path", "glob", "name", "path_glob"} {
		if v, ok := a[k]; ok {
			parts = append(parts, fmt.Sprintf("%q", fmt.Sprint(v)))
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// finish checks the answer and builds the result. An answer that cites
// nothing valid becomes a refusal saying what was searched.
func (r *run) finish(notice string) *Result {
	r.deliver(r.rw.Flush())
	res := r.res
	res.Notice = notice
	res.Citations = r.rw.Citations()
	if res.Citations == nil {
		res.Citations = []citations.Citation{}
	}
	text := strings.TrimSpace(r.answer.String())
	switch {
	case strings.HasPrefix(text, notFoundPrefix):
		res.Refused = true
		text += "\n\n" + r.searchedLine()
	case len(res.Citations) == 0:
		res.Refused = true
		if dropped := r.rw.Dropped(); len(dropped) > 0 {
			r.cfg.Logger.Info("answer refused: every citation was invalid", "dropped", dropped)
		}
		text = "I could not find an answer in the code that I can back with a citation.\n\n" + r.searchedLine()
	}
	res.Answer = text
	res.Stats.MS = float64(time.Since(r.start).Microseconds()) / 1000
	return res
}

func (r *run) searchedLine() string {
	if len(r.searched) == 0 {
		return "Nothing was searched."
	}
	return "Searched: " + strings.Join(dedupe(r.searched), ", ") + "."
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// toolDefs describes the tools to the model.
func toolDefs() api.Tools {
	var out api.Tools
	for _, t := range tools {
		props := api.NewToolPropertiesMap()
		var required []string
		for _, p := range t.params {
			props.Set(p.name, api.ToolProperty{Type: api.PropertyType{p.typ}, Description: p.desc})
			if p.required {
				required = append(required, p.name)
			}
		}
		out = append(out, api.Tool{
			Type: "function",
			Function: api.ToolFunction{
				Name:        t.name,
				Description: t.desc,
				Parameters:  api.ToolFunctionParameters{Type: "object", Required: required, Properties: props},
			},
		})
	}
	return out
}

// parseKeepAlive reads Ollama's keep_alive: a duration ("10m"), or a
// number of seconds ("-1" keeps the model loaded, "0" unloads it).
func parseKeepAlive(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var n float64
	if _, err := fmt.Sscanf(s, "%g", &n); err != nil {
		return 0, fmt.Errorf("bad keep_alive %q", s)
	}
	if n < 0 {
		return -1, nil
	}
	return time.Duration(n * float64(time.Second)), nil
}
