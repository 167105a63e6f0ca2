package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// openaiProvider is the Provider for OpenAI-compatible servers
// (/v1/chat/completions streamed as server-sent events, /v1/models):
// llama.cpp's llama-server, LM Studio, vLLM, Ollama's /v1, hosted
// endpoints. The wire is written here with net/http (openaiwire.go):
// github.com/openai/openai-go v3 did the same job but tripled the askls
// binary (docs/providers.md). Streamed tool-call deltas are joined by
// index across chunks, so servers that omit ids or mix text and calls in
// one chunk work too.
type openaiProvider struct {
	cfg    Config
	base   string // with its /v1, no trailing slash
	client *http.Client
}

func newOpenAI(cfg Config) (*openaiProvider, error) {
	base, err := baseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	return &openaiProvider{cfg: cfg, base: base, client: &http.Client{}}, nil
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
		return "", fmt.Errorf("bad base URL %q: want http(s)://host[:port]/v1", ShownURL(s))
	}
	if u.User != nil || hasKeyParam(u) {
		return "", fmt.Errorf("bad base URL %s: put the API key in ASKLS_API_KEY, not in the URL", ShownURL(s))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	return u.String(), nil
}

func (p *openaiProvider) Name() string     { return ProviderOpenAI }
func (p *openaiProvider) Endpoint() string { return p.base }

// httpError is an error status with what its body was: an HTML page or a
// plain-text body is named instead of failing to decode.
type httpError struct {
	status  int
	what    string // describeBody's words
	message string // the JSON error's message, if any
	header  http.Header
}

func (e *httpError) Error() string {
	if e.message != "" {
		return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
	}
	return fmt.Sprintf("HTTP %d with %s", e.status, e.what)
}

// do sends a request to path under the base URL; an error status becomes
// an *httpError. The caller closes the body.
func (p *openaiProvider) do(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream, application/json")
	}
	if p.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 400 {
		return resp, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	he := &httpError{status: resp.StatusCode, what: describeBody(resp.Header.Get("Content-Type"), b), header: resp.Header}
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && len(e.Error) > 0 {
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
	resp, err := p.do(ctx, http.MethodPost, "/chat/completions", chatBody(p.cfg.Model, req))
	if err != nil {
		if ctx.Err() != nil {
			return ChatReply{}, ctx.Err()
		}
		return ChatReply{}, p.describe(err)
	}
	defer resp.Body.Close()
	var reply ChatReply
	var asm toolAssembler
	apply := func(c oaChunk) error {
		if c.Usage != nil {
			reply.PromptTokens, reply.EvalTokens = c.Usage.PromptTokens, c.Usage.CompletionTokens
		}
		for _, ch := range c.Choices {
			if ch.Index != 0 {
				continue // askls asks for one choice
			}
			d := ch.Delta
			if ch.Message != nil { // a whole, unstreamed answer
				d = *ch.Message
			}
			for _, tc := range d.ToolCalls {
				asm.add(tc.Index, tc.ID, tc.Function.Name, tc.Function.Arguments)
			}
			if d.Content != "" {
				if err := onText(d.Content); err != nil {
					return err
				}
			}
			if ch.FinishReason != "" {
				reply.FinishReason = ch.FinishReason
			}
		}
		return nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		// A server that does not stream answers with one JSON object.
		var c oaChunk
		if err := json.NewDecoder(io.LimitReader(resp.Body, maxEvent)).Decode(&c); err != nil {
			return reply, p.describe(fmt.Errorf("reading the answer: %w", err))
		}
		err = apply(c)
	} else {
		err = readEvents(resp.Body, func(data []byte) error {
			var c oaChunk
			if err := json.Unmarshal(data, &c); err != nil {
				return fmt.Errorf("a stream chunk is not JSON: %w", err)
			}
			if len(c.Error) > 0 && string(c.Error) != "null" {
				return &streamError{msg: errorMessage(c.Error)}
			}
			return apply(c)
		})
	}
	if ctx.Err() != nil {
		return reply, ctx.Err()
	}
	if err != nil {
		return reply, p.describe(err)
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
	_, err := p.models(pctx)
	if err == nil || ctx.Err() != nil || !errors.Is(pctx.Err(), context.DeadlineExceeded) {
		return ""
	}
	return silentMessage(p.base, "an OpenAI-compatible server") + " (`askls doctor` checks)"
}

// errNotJSON is wrapped by the error of an answer that is not the JSON
// the API defines (a server that is not OpenAI-compatible).
var errNotJSON = errors.New("not the expected JSON")

// models lists the ids /models answers.
func (p *openaiProvider) models(ctx context.Context) ([]string, error) {
	resp, err := p.do(ctx, http.MethodGet, "/models", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxEvent)).Decode(&list); err != nil {
		return nil, fmt.Errorf("the /models answer is %w: %w", errNotJSON, err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// describe turns a client error into a *ModelError, its message scrubbed
// of credentials (the server's error body may hold one, or the key).
func (p *openaiProvider) describe(err error) error {
	e := p.describeRaw(err)
	if me, ok := e.(*ModelError); ok {
		me.Msg = Scrub(me.Msg, p.cfg.APIKey)
	}
	return e
}

func (p *openaiProvider) describeRaw(err error) error {
	base, model := p.base, p.cfg.Model
	var he *httpError
	var se *streamError
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
		return &ModelError{Msg: fmt.Sprintf("the server at %s stopped the answer: %s", base, shorten(se.msg, 200)), Err: err}
	}
	if why, ok := describeDialError(err); ok {
		return &ModelError{Msg: fmt.Sprintf("no server at %s (%s): start it, or check --base-url", base, why), Unusable: true, Err: err}
	}
	return &ModelError{Msg: fmt.Sprintf("the model failed: %v", err), Err: err}
}
