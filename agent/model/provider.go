package model

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Provider is a model server the agent loop talks to: Ollama's native API
// or an OpenAI-compatible one. The loop (budgets, text tool-call fallback,
// citations, refusals) is the same for every provider; a provider only
// moves one turn over its wire.
//
// Implementations are safe for concurrent use.
type Provider interface {
	// Name is "ollama" or "openai".
	Name() string
	// Endpoint is the server's address as the user configured it, for
	// messages. It never holds a credential.
	Endpoint() string
	// Chat streams one model turn. Answer text is passed to onText as it
	// arrives; a non-nil error from onText ends the turn with that error.
	// Tool calls are returned whole, their arguments assembled from
	// every chunk. Errors that the user can act on are *ModelError.
	Chat(ctx context.Context, req ChatRequest, onText func(string) error) (ChatReply, error)
	// Probe checks quickly (within ProbeTimeout) that the server answers
	// at all. It returns why the model cannot be used, or "" to go on.
	Probe(ctx context.Context) string
	// Health is what `askls doctor` shows: reachable, model present, and
	// what to run or set to fix each problem.
	Health(ctx context.Context) Health
}

// ModelConfig is what a provider needs of the configuration: the server,
// the model and how to ask it. The agent fills in the defaults.
type Config struct {
	// Provider is ProviderOllama or ProviderOpenAI.
	Provider string
	// Host is the Ollama server as OLLAMA_HOST is written.
	Host string
	// BaseURL is the OpenAI-compatible server, "http://host:port/v1"; a
	// bare host gets "/v1".
	BaseURL string
	// APIKey is sent as a bearer token to the OpenAI-compatible server,
	// never to Ollama. It is never logged, written or shown.
	APIKey string `json:"-"`
	Model  string
	// NumCtx is the context window asked of Ollama (num_ctx).
	NumCtx int
	// KeepAlive is Ollama's keep_alive ("10m", "-1", "0").
	KeepAlive string
	// Think enables a thinking model's reasoning phase.
	Think bool
}

// Providers by name.
const (
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
)

// ChatRequest is one model turn: the conversation so far and the tools
// the model may call (none on the last turn).
type ChatRequest struct {
	Messages []Message
	Tools    []ToolSpec
}

// Message is one message of the conversation.
type Message struct {
	Role       string // "system" | "user" | "assistant" | "tool"
	Content    string
	ToolCalls  []ToolCall // an assistant's calls
	ToolName   string     // a tool result's tool
	ToolCallID string     // a tool result's call id (may be empty)
}

// ToolCall is one call the model made, its arguments decoded.
type ToolCall struct {
	ID   string
	Name string
	Args map[string]any
	// BadArgs holds arguments that were not a JSON object (cut); Args is
	// nil then and the model is told so.
	BadArgs string
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Params      []ToolParam
}

// ToolParam is one argument of a tool; Type is a JSON Schema type.
type ToolParam struct {
	Name, Type, Description string
	Required                bool
}

// Schema is the tool's arguments as a JSON Schema object.
func (t ToolSpec) Schema() map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range t.Params {
		props[p.Name] = map[string]any{"type": p.Type, "description": p.Description}
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

// ChatReply is the end of one turn.
type ChatReply struct {
	ToolCalls    []ToolCall
	FinishReason string // "stop", "tool_calls", "length", …
	PromptTokens int    // 0 when the server does not say
	EvalTokens   int
	// ModelMS, PromptMS, EvalMS are the server's own timings, when it
	// reports them (Ollama does; OpenAI-compatible servers do not).
	ModelMS, PromptMS, EvalMS float64
}

// ModelError is a failure the user can act on: the message names the
// server, what it answered and what to run or set.
type ModelError struct {
	Msg string
	// Unusable means no answer can come from this server as configured
	// (not running, wrong model, bad key): fall back to retrieval mode.
	Unusable bool
	// Status is the HTTP status the server answered, 0 if none.
	Status int
	// RetryAfter is what the server asked for with 429/503, 0 if nothing.
	RetryAfter time.Duration
	Err        error
}

func (e *ModelError) Error() string { return e.Msg }
func (e *ModelError) Unwrap() error { return e.Err }

// ProbeTimeout bounds the quick check before an answer and each request
// of the health check: a server that accepts connections and never
// answers is reported within it.
var ProbeTimeout = 3 * time.Second

// Retries of a turn the server refused as overloaded (429, 503), made only
// before any text of the turn was streamed.
var (
	retryDelays   = []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 4 * time.Second}
	maxRetryAfter = 10 * time.Second
)

// ChatWithRetry runs one turn, trying again after a backoff when the
// server answers 429 or 503 before any text was streamed. A turn whose
// text has started is never repeated: the user has seen it.
func ChatWithRetry(ctx context.Context, p Provider, req ChatRequest, onText func(string) error) (ChatReply, error) {
	streamed := false
	wrapped := func(s string) error {
		streamed = true
		return onText(s)
	}
	for attempt := 0; ; attempt++ {
		reply, err := p.Chat(ctx, req, wrapped)
		var me *ModelError
		if err == nil || streamed || !errors.As(err, &me) || !overloaded(me.Status) {
			return reply, err
		}
		if attempt == len(retryDelays) {
			return reply, &ModelError{
				Msg:    fmt.Sprintf("the model server at %s is overloaded (HTTP %d, %d tries): try again in a minute, or ask whoever runs it for more capacity", p.Endpoint(), me.Status, attempt+1),
				Status: me.Status, Err: err,
			}
		}
		wait := retryDelays[attempt]
		if me.RetryAfter > wait {
			wait = min(me.RetryAfter, maxRetryAfter)
		}
		select {
		case <-ctx.Done():
			return reply, ctx.Err()
		case <-time.After(wait):
		}
	}
}

func overloaded(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(h http.Header) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After"))); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

// describeBody says in a few words what an error body is: "an HTML page",
// "an empty body", or its first line, cut.
func describeBody(contentType string, body []byte) string {
	s := strings.TrimSpace(string(body))
	low := strings.ToLower(s[:min(len(s), 200)])
	switch {
	case s == "":
		return "an empty body"
	case strings.Contains(contentType, "html") || strings.HasPrefix(low, "<!doctype html") || strings.HasPrefix(low, "<html") || strings.Contains(low, "<body"):
		return "an HTML page"
	}
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return strconv.Quote(shorten(s, 120))
}

// describeDialError turns a transport error into what a user can check,
// when nothing answers at the host (unreachable).
func describeDialError(err error) (string, bool) {
	if unreachable(err) {
		return shortErr(err), true
	}
	return "", false
}

// New builds the provider cfg names.
func New(cfg Config) (Provider, error) {
	switch cfg.Provider {
	case ProviderOllama:
		return newOllama(cfg)
	case ProviderOpenAI:
		return newOpenAI(cfg)
	default:
		return nil, fmt.Errorf("unknown provider %q: want %s or %s", cfg.Provider, ProviderOllama, ProviderOpenAI)
	}
}

// unreachable reports whether err says nothing answers at the host: a
// failed dial, connection refused, or a name that does not resolve.
func unreachable(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &op) && op.Op == "dial" || errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED)
}

// DefaultModel is the model used when Config.Model is empty.
//
// qwen3:4b: a 2.5 GB download that runs on a laptop CPU or a small GPU,
// reports the "tools" capability in Ollama and calls tools reliably for its
// size, reads code well, and its reasoning phase can be turned off
// (think:false) so that each hop costs only the answer's tokens. Its
// native context (40K) leaves room for the 16K we ask for.
const DefaultModel = "qwen3:4b"

// shorten cuts s to at most n runes, ending it with "…" when cut: a
// server's message quoted in an error.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}
