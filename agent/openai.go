package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// openaiProvider is the Provider for OpenAI-compatible servers
// (/v1/chat/completions streamed as server-sent events, /v1/models):
// llama.cpp's llama-server, LM Studio, vLLM, Ollama's /v1, hosted
// endpoints. The wire is github.com/openai/openai-go; askls assembles the
// streamed tool-call deltas itself (by index, across chunks) so that
// servers that omit ids or mix text and calls in one chunk work too.
type openaiProvider struct {
	cfg    Config
	base   string // with its /v1, no trailing slash
	client openai.Client
}

func newOpenAI(cfg Config) (*openaiProvider, error) {
	base, err := baseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	p := &openaiProvider{cfg: cfg, base: base}
	opts := []option.RequestOption{
		option.WithBaseURL(base + "/"),
		option.WithHTTPClient(&http.Client{}),
		// askls retries itself, only on 429/503 and only before any text
		// streamed (chatWithRetry).
		option.WithMaxRetries(0),
		option.WithMiddleware(errorBody),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	p.client = openai.NewClient(opts...)
	return p, nil
}

// baseURL checks an OpenAI-compatible base URL. A bare host gets "/v1",
// the path every such server serves the API under.
func baseURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("no base URL for the openai provider: pass --base-url (e.g. http://127.0.0.1:8080/v1) or set askls.baseUrl")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("bad base URL %q: want http(s)://host[:port]/v1", s)
	}
	if u.User != nil {
		return "", fmt.Errorf("bad base URL: put the API key in ASKLS_API_KEY, not in the URL")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	return u.String(), nil
}

func (p *openaiProvider) Name() string     { return ProviderOpenAI }
func (p *openaiProvider) Endpoint() string { return p.base }

// httpError is an error status with what its body was, read by errorBody
// before the client library sees it (the library reads only JSON bodies).
type httpError struct {
	status     int
	what       string // describeBody's words
	message    string // the JSON error's message, if any
	retryAfter int    // seconds
	header     http.Header
}

func (e *httpError) Error() string {
	if e.message != "" {
		return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
	}
	return fmt.Sprintf("HTTP %d with %s", e.status, e.what)
}

// errorBody turns every error status into an *httpError, so that an HTML
// page or a plain-text body is named instead of failing to decode.
func errorBody(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	he := &httpError{status: resp.StatusCode, what: describeBody(resp.Header.Get("Content-Type"), body), header: resp.Header}
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		var str string
		switch {
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			he.message = obj.Message
		case json.Unmarshal(e.Error, &str) == nil:
			he.message = str
		}
	}
	return nil, he
}

// Chat streams one turn from /chat/completions.
func (p *openaiProvider) Chat(ctx context.Context, req ChatRequest, onText func(string) error) (ChatReply, error) {
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.cfg.Model),
		Messages:      openaiMessages(req.Messages),
		Temperature:   openai.Float(0),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: openai.String(t.Description),
			Parameters:  shared.FunctionParameters(t.Schema()),
		}))
	}
	stream := p.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	var reply ChatReply
	var asm toolAssembler
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0 {
			reply.PromptTokens = int(chunk.Usage.PromptTokens)
			reply.EvalTokens = int(chunk.Usage.CompletionTokens)
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // askls asks for one choice
			}
			for _, d := range ch.Delta.ToolCalls {
				asm.add(int(d.Index), d.ID, d.Function.Name, d.Function.Arguments)
			}
			if ch.Delta.Content != "" {
				if err := onText(ch.Delta.Content); err != nil {
					return reply, err
				}
			}
			if ch.FinishReason != "" {
				reply.FinishReason = ch.FinishReason
			}
		}
	}
	if err := stream.Err(); err != nil {
		if ctx.Err() != nil {
			return reply, ctx.Err()
		}
		return reply, p.describe(err)
	}
	if ctx.Err() != nil {
		return reply, ctx.Err()
	}
	if reply.FinishReason == "" {
		return reply, errors.New("the stream ended without a finish_reason")
	}
	reply.ToolCalls = asm.calls()
	return reply, nil
}

// toolAssembler joins streamed tool-call deltas: the first delta of a call
// carries its index, id and name, the following ones pieces of its
// arguments (a JSON string). Ids may be missing.
type toolAssembler struct {
	parts []*toolPart
}

type toolPart struct {
	index    int
	id, name string
	args     strings.Builder
}

func (a *toolAssembler) add(index int, id, name, args string) {
	var cur *toolPart
	for i := len(a.parts) - 1; i >= 0; i-- {
		if a.parts[i].index == index {
			cur = a.parts[i]
			break
		}
	}
	// A new id at an index already in use starts another call (servers
	// that number every call 0).
	if cur == nil || (id != "" && cur.id != "" && id != cur.id) {
		cur = &toolPart{index: index}
		a.parts = append(a.parts, cur)
	}
	if id != "" {
		cur.id = id
	}
	cur.name += name
	cur.args.WriteString(args)
}

func (a *toolAssembler) calls() []ToolCall {
	parts := append([]*toolPart(nil), a.parts...)
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].index < parts[j].index })
	var out []ToolCall
	for i, tp := range parts {
		tc := ToolCall{ID: tp.id, Name: tp.name, Args: map[string]any{}}
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d", i)
		}
		if raw := strings.TrimSpace(tp.args.String()); raw != "" {
			if err := json.Unmarshal([]byte(raw), &tc.Args); err != nil {
				tc.Args = nil
				tc.BadArgs = shorten(raw, 200)
			}
		}
		out = append(out, tc)
	}
	return out
}

// Probe lists the models within ProbeTimeout. Only silence counts: every
// other failure is left to the chat request, which names it precisely.
func (p *openaiProvider) Probe(ctx context.Context) string {
	pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	_, err := p.client.Models.List(pctx)
	if err == nil || ctx.Err() != nil || !errors.Is(pctx.Err(), context.DeadlineExceeded) {
		return ""
	}
	return silentMessage(p.base, "an OpenAI-compatible server") + " (`askls doctor` checks)"
}

// describe turns a client error into a *ModelError.
func (p *openaiProvider) describe(err error) error {
	base, model := p.base, p.cfg.Model
	var he *httpError
	var se *ssestream.StreamError
	switch {
	case errors.As(err, &he):
		me := &ModelError{Status: he.status, Unusable: true, Err: err, RetryAfter: retryAfter(he.header)}
		switch {
		case he.status == http.StatusUnauthorized || he.status == http.StatusForbidden:
			me.Msg = fmt.Sprintf("the server at %s refused the API key (HTTP %d): set ASKLS_API_KEY (or OPENAI_API_KEY) to a valid key", base, he.status)
		case he.message == "" && (he.status == http.StatusNotFound || he.what == "an HTML page"):
			me.Msg = fmt.Sprintf("the server at %s is not an OpenAI-compatible API: it answered HTTP %d with %s (the base URL usually ends in /v1)", base, he.status, he.what)
		case he.status == http.StatusNotFound || (he.status == http.StatusBadRequest && strings.Contains(strings.ToLower(he.message), "model")):
			me.Msg = fmt.Sprintf("model %s is not available on %s (HTTP %d: %s): pass --model with one it serves (`askls doctor --provider openai` lists them)", model, base, he.status, shorten(he.message, 200))
		case overloaded(he.status):
			me.Msg = fmt.Sprintf("the model server at %s is overloaded (HTTP %d): try again in a minute", base, he.status)
			me.Unusable = false
		case he.message != "":
			me.Msg = fmt.Sprintf("the server at %s answered HTTP %d: %s", base, he.status, shorten(he.message, 200))
		default:
			me.Msg = fmt.Sprintf("the server at %s answered HTTP %d with %s", base, he.status, he.what)
		}
		return me
	case errors.As(err, &se):
		return &ModelError{Msg: fmt.Sprintf("the server at %s stopped the answer: %s", base, shorten(se.Message, 200)), Err: err}
	}
	if why, ok := describeDialError(err); ok {
		return &ModelError{Msg: fmt.Sprintf("no server at %s (%s): start it, or check --base-url", base, why), Unusable: true, Err: err}
	}
	return &ModelError{Msg: fmt.Sprintf("the model failed: %v", err), Err: err}
}

func openaiMessages(msgs []Message) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case "system":
			out = append(out, openai.SystemMessage(m.Content))
		case "user":
			out = append(out, openai.UserMessage(m.Content))
		case "tool":
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		case "assistant":
			am := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				am.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				b, _ := json.Marshal(tc.Args)
				if tc.Args == nil {
					b = []byte("{}")
				}
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: string(b)},
					},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		}
	}
	return out
}
