package model

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// ollama is the Provider for Ollama's native API (/api/chat, NDJSON).
type ollama struct {
	cfg    Config
	client *api.Client
	keep   *api.Duration
}

func newOllama(cfg Config) (*ollama, error) {
	u, err := hostURL(cfg.Host)
	if err != nil {
		return nil, err
	}
	o := &ollama{cfg: cfg, client: api.NewClient(u, &http.Client{})}
	o.cfg.Host = ShownURL(u.String()) // the client keeps u; messages show this
	if d, err := parseKeepAlive(cfg.KeepAlive); err == nil {
		o.keep = &api.Duration{Duration: d}
	}
	return o, nil
}

func (o *ollama) Name() string     { return ProviderOllama }
func (o *ollama) Endpoint() string { return o.cfg.Host }

// Chat streams one turn from /api/chat.
func (o *ollama) Chat(ctx context.Context, req ChatRequest, onText func(string) error) (ChatReply, error) {
	stream := true
	areq := &api.ChatRequest{
		Model:     o.cfg.Model,
		Messages:  ollamaMessages(req.Messages),
		Stream:    &stream,
		KeepAlive: o.keep,
		Think:     &api.ThinkValue{Value: o.cfg.Think},
		Options:   map[string]any{"num_ctx": o.cfg.NumCtx, "temperature": 0},
	}
	if len(req.Tools) > 0 {
		areq.Tools = ollamaTools(req.Tools)
	}
	var reply ChatReply
	done := false
	err := o.client.Chat(ctx, areq, func(resp api.ChatResponse) error {
		if d := resp.Message.Content; d != "" {
			if err := onText(d); err != nil {
				return err
			}
		}
		for _, tc := range resp.Message.ToolCalls {
			reply.ToolCalls = append(reply.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments.ToMap()})
		}
		if resp.Done {
			done = true
			reply.FinishReason = resp.DoneReason
			reply.PromptTokens = resp.PromptEvalCount
			reply.EvalTokens = resp.EvalCount
			reply.ModelMS = float64(resp.TotalDuration) / 1e6
			reply.PromptMS = float64(resp.PromptEvalDuration) / 1e6
			reply.EvalMS = float64(resp.EvalDuration) / 1e6
		}
		return ctx.Err()
	})
	if err != nil {
		if ctx.Err() != nil {
			return reply, ctx.Err()
		}
		return reply, o.describe(err)
	}
	if !done {
		// The client returns nil when the stream breaks off: a turn is
		// whole only with its done chunk.
		if ctx.Err() != nil {
			return reply, ctx.Err()
		}
		return reply, errors.New("the stream ended without its last chunk")
	}
	return reply, nil
}

// Probe asks the server its version, which Ollama answers at once even
// while it loads a model. Only silence counts: every other failure is left
// to the chat request, which names it precisely.
func (o *ollama) Probe(ctx context.Context) string {
	pctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	_, err := o.client.Version(pctx)
	if err == nil || ctx.Err() != nil || !errors.Is(pctx.Err(), context.DeadlineExceeded) {
		return ""
	}
	return silentMessage(o.cfg.Host, "Ollama") + " (`askls doctor` checks)"
}

func silentMessage(endpoint, what string) string {
	return fmt.Sprintf("the server at %s accepted the connection but did not answer within %s: is it %s?", endpoint, ProbeTimeout, what)
}

// describe turns an Ollama client error into a *ModelError, its message
// scrubbed of credentials (the server's error body may hold one).
func (o *ollama) describe(err error) error {
	e := o.describeRaw(err)
	if me, ok := e.(*ModelError); ok {
		me.Msg = Scrub(me.Msg, o.cfg.APIKey)
	}
	return e
}

func (o *ollama) describeRaw(err error) error {
	host, model := o.cfg.Host, o.cfg.Model
	var se api.StatusError
	var ae api.AuthorizationError
	switch {
	case errors.As(err, &ae):
		return &ModelError{Msg: fmt.Sprintf("the server at %s refused askls (HTTP %d): it is not an open Ollama server; check OLLAMA_HOST", host, ae.StatusCode), Unusable: true, Status: ae.StatusCode, Err: err}
	case errors.As(err, &se):
		what := describeBody("", []byte(se.ErrorMessage))
		switch {
		case what == "an HTML page" || what == "an empty body" || (se.StatusCode == http.StatusNotFound && !strings.Contains(se.ErrorMessage, "model")):
			return &ModelError{Msg: notOllama(host, se.StatusCode, what), Unusable: true, Status: se.StatusCode, Err: err}
		case se.StatusCode == http.StatusNotFound:
			return &ModelError{Msg: fmt.Sprintf("model %s is not available on %s: run `ollama pull %s`", model, host, model), Unusable: true, Status: se.StatusCode, Err: err}
		case se.StatusCode == http.StatusBadRequest && strings.Contains(se.ErrorMessage, "does not support tools"):
			return &ModelError{Msg: fmt.Sprintf("model %s cannot call tools: run `ollama pull %s` and use --model %s", model, DefaultModel, DefaultModel), Unusable: true, Status: se.StatusCode, Err: err}
		default:
			return &ModelError{Msg: fmt.Sprintf("Ollama at %s answered HTTP %d: %s", host, se.StatusCode, shorten(trimmedFirstLine(se.ErrorMessage), 200)), Unusable: true, Status: se.StatusCode, Err: err}
		}
	}
	if _, ok := describeDialError(err); ok {
		return &ModelError{Msg: fmt.Sprintf("no Ollama server at %s: run `ollama serve` (or set OLLAMA_HOST)", host), Unusable: true, Err: err}
	}
	return &ModelError{Msg: fmt.Sprintf("the model failed: %v", err), Err: err}
}

func notOllama(host string, status int, what string) string {
	return fmt.Sprintf("the server at %s is not Ollama: it answered HTTP %d with %s (check OLLAMA_HOST, or use --provider openai for an OpenAI-compatible server)", host, status, what)
}

func trimmedFirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func ollamaMessages(msgs []Message) []api.Message {
	out := make([]api.Message, 0, len(msgs))
	for _, m := range msgs {
		am := api.Message{Role: m.Role, Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		for i, tc := range m.ToolCalls {
			args := api.NewToolCallFunctionArguments()
			for k, v := range tc.Args {
				args.Set(k, v)
			}
			am.ToolCalls = append(am.ToolCalls, api.ToolCall{ID: tc.ID, Function: api.ToolCallFunction{Index: i, Name: tc.Name, Arguments: args}})
		}
		out = append(out, am)
	}
	return out
}

func ollamaTools(specs []ToolSpec) api.Tools {
	var out api.Tools
	for _, t := range specs {
		props := api.NewToolPropertiesMap()
		var required []string
		for _, p := range t.Params {
			props.Set(p.Name, api.ToolProperty{Type: api.PropertyType{p.Type}, Description: p.Description})
			if p.Required {
				required = append(required, p.Name)
			}
		}
		out = append(out, api.Tool{
			Type: "function",
			Function: api.ToolFunction{
				Name:        t.Name,
				Description: t.Description,
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

// hostURL parses an Ollama host the way OLLAMA_HOST is written:
// "127.0.0.1:11434", "http://host:port", "host" (port 11434), ":11434".
func hostURL(host string) (*url.URL, error) {
	host = strings.TrimSpace(host)
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("bad Ollama host %q: %w", ShownURL(host), errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad Ollama host %q: scheme must be http or https", ShownURL(host))
	}
	h, port := u.Hostname(), u.Port()
	if h == "" {
		h = "127.0.0.1"
	}
	if port == "" {
		port = "11434"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	u.Host = net.JoinHostPort(h, port)
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}
