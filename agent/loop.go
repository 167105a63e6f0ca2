package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/model"

	"github.com/askls/askls/citations"
)

// model runs the tool loop with the model.
func (r *run) model(parent context.Context) (*Result, error) {
	ctx, cancel := context.WithTimeout(parent, r.cfg.Timeout)
	defer cancel()
	soft := r.start.Add(r.cfg.Timeout * 3 / 4)

	r.res.Mode, r.res.Model = ModeModel, r.cfg.Model
	msgs := r.opening()
	for _, m := range msgs {
		r.chars += len(m.Content)
	}
	defs := tools.Specs()
	final, nudged := "", false
	for hop := 0; ; hop++ {
		if final == "" {
			final = r.budgetUsed(hop, soft)
			if final != "" {
				p := finalPrompt(final)
				msgs = append(msgs, model.Message{Role: "user", Content: p})
				r.chars += len(p)
			}
		}
		req := model.ChatRequest{Messages: msgs}
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
			msg, unusable := classify(err)
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
				msgs = append(msgs, model.Message{Role: "assistant", Content: t.content}, model.Message{Role: "user", Content: nudgePrompt})
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
		msgs = append(msgs, model.Message{Role: "assistant", Content: t.content, ToolCalls: t.native})
		r.chars += len(t.content)
		for _, c := range calls {
			if parent.Err() != nil {
				return nil, parent.Err()
			}
			text := r.callOrExplain(ctx, c)
			if room := r.cfg.MaxContextChars - r.chars; len(text) > room {
				text = r.cut(text, room)
			}
			r.chars += len(text)
			msgs = append(msgs, model.Message{Role: "tool", Content: text, ToolName: c.name, ToolCallID: c.id})
		}
	}
}

// budgetUsed returns which budget is used up before turn hop, or "".
func (r *run) budgetUsed(hop int, soft time.Time) string {
	switch {
	case hop >= r.cfg.MaxHops:
		return fmt.Sprintf("%d model turns used", r.cfg.MaxHops)
	case r.res.Stats.ToolCalls >= r.cfg.MaxToolCalls:
		return fmt.Sprintf("%d tool calls used", r.cfg.MaxToolCalls)
	case r.chars >= r.cfg.MaxContextChars:
		return "context budget used"
	case r.lastPrompt >= r.cfg.NumCtx*9/10:
		// Servers drop early messages silently when the prompt passes
		// the context window: their own count is the truth.
		return fmt.Sprintf("the model's context window (%d tokens) is nearly full", r.cfg.NumCtx)
	case time.Now().After(soft):
		return "time budget nearly used"
	}
	return ""
}

// callOrExplain runs a call, or tells the model why it could not be run.
func (r *run) callOrExplain(ctx context.Context, c call) string {
	if c.badArgs != "" {
		r.res.Stats.ToolCalls++
		r.searched = append(r.searched, c.name+"(…)")
		return fmt.Sprintf("error: the arguments of this %s call are not a JSON object (%s); call it again with JSON arguments", c.name, c.badArgs)
	}
	return r.call(ctx, c.name, c.args)
}

// call is one tool call the model asked for.
type call struct {
	id, name string
	args     tools.Args
	badArgs  string // arguments that were not JSON, cut
}

// turnResult is one model turn.
type turnResult struct {
	content string           // the assistant text of the turn
	native  []model.ToolCall // tool calls as the API returned them
	calls   []call           // native calls, or calls written as text
	quiet   string           // answer text held back because no evidence existed yet
}

// turn streams one model turn. Answer text goes out through the citation
// rewriter as it arrives, except from a line that may begin a tool call
// written as text ("{", "```json", "<tool_call>"): that is held until the
// turn ends, then run as tool calls if it is one, else emitted. Text
// written before any evidence exists is streamed (through a scratch
// rewriter: it can cite nothing) but kept out of the answer: it is either
// a preamble to tool calls or an uncitable answer (turnResult.quiet).
func (r *run) turn(ctx context.Context, req model.ChatRequest) (turnResult, error) {
	s := &turnStream{r: r, quiet: r.reg.Len() == 0, scratch: citations.NewRewriter(r.reg, r.tb.Content)}
	tctx, cancel := context.WithTimeout(ctx, r.cfg.RequestTimeout)
	defer cancel()
	reply, err := model.ChatWithRetry(tctx, r.a.provider, req, s.delta)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		err = &model.ModelError{Msg: fmt.Sprintf("the model server at %s did not finish a turn within %s", r.a.provider.Endpoint(), r.cfg.RequestTimeout), Err: err}
	}
	if err == nil {
		r.countReply(reply)
	}
	t := &s.t
	t.content = s.content.String()
	t.native = reply.ToolCalls
	for _, tc := range t.native {
		t.calls = append(t.calls, call{id: tc.ID, name: tc.Name, args: tools.Args(tc.Args), badArgs: tc.BadArgs})
	}
	rest := t.content[s.sent:]
	if s.quiet && len(t.calls) > 0 {
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
			s.send(rest)
		}
	}
	if s.quiet {
		s.endQuiet()
	}
	return *t, err
}

// turnStream is the text of one model turn while it streams: what has
// been sent on (content[:sent]) and, in a quiet turn (no evidence yet),
// what went to the client through the scratch rewriter.
type turnStream struct {
	r       *run
	t       turnResult
	content strings.Builder
	sent    int
	started bool // non-blank answer text was sent

	quiet     bool
	scratch   *citations.Rewriter
	quietSent bool   // a quiet delta reached the client
	quietTail string // its last two bytes
}

// delta takes one streamed piece of the reply and sends on what cannot be
// the start of a tool call written as text.
func (s *turnStream) delta(d string) error {
	s.content.WriteString(d)
	c := s.content.String()
	hold := holdFrom(c, s.sent)
	if !s.started && strings.TrimSpace(c[s.sent:hold]) == "" {
		return nil // nothing but blanks yet: wait
	}
	s.send(c[s.sent:hold])
	s.sent = hold
	return nil
}

// send passes answer text on: to the answer, or held as quiet text.
func (s *turnStream) send(text string) {
	if text == "" {
		return
	}
	if s.quiet {
		s.t.quiet += text
		s.quietDelta(s.scratch.Write(text))
		return
	}
	if !s.started {
		if strings.TrimSpace(text) == "" {
			return // leading blank lines: keep them back
		}
		s.started = true
		s.r.startText(text)
		return
	}
	s.r.emit(text)
}

func (s *turnStream) quietDelta(out string) {
	if out != "" && s.r.ev.Delta != nil {
		s.r.ev.Delta(out)
		s.quietSent = true
		s.quietTail = (s.quietTail + out)[max(0, len(s.quietTail)+len(out)-2):]
	}
}

// endQuiet flushes the scratch rewriter and ends what the client was sent
// with a blank line (what follows replaces it); text before tool calls is
// a preamble, not an answer.
func (s *turnStream) endQuiet() {
	s.quietDelta(s.scratch.Flush())
	if sep := strings.Repeat("\n", 2-min(2, len(s.quietTail)-len(strings.TrimRight(s.quietTail, "\n")))); s.quietSent && sep != "" {
		s.r.ev.Delta(sep) // what follows replaces it
	}
	if len(s.t.calls) > 0 {
		s.t.quiet = ""
	}
}

// countReply adds a finished turn's token counts and times to the stats.
func (r *run) countReply(reply model.ChatReply) {
	r.res.Stats.PromptTokens += reply.PromptTokens
	r.lastPrompt = reply.PromptTokens
	r.res.Stats.EvalTokens += reply.EvalTokens
	r.res.Stats.ModelMS += reply.ModelMS
	r.res.Stats.PromptMS += reply.PromptMS
	r.res.Stats.EvalMS += reply.EvalMS
	r.cfg.Logger.Debug("model turn", "provider", r.a.provider.Name(), "finish_reason", reply.FinishReason,
		"prompt_tokens", reply.PromptTokens, "eval_tokens", reply.EvalTokens,
		"prompt_ms", reply.PromptMS, "eval_ms", reply.EvalMS)
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
