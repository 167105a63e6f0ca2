package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/askls/askls/citations"
)

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
			r.res.Stats.ModelMS += float64(resp.TotalDuration) / 1e6
			r.res.Stats.PromptMS += float64(resp.PromptEvalDuration) / 1e6
			r.res.Stats.EvalMS += float64(resp.EvalDuration) / 1e6
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
