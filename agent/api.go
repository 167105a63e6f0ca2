package agent

import (
	"log/slog"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/citations"
)

// Config configures an Agent. Zero values mean the documented defaults.
type Config struct {
	// Provider is the model server's API: "ollama" (default) or "openai"
	// (any OpenAI-compatible server).
	Provider string
	// Host is the Ollama server, "http://127.0.0.1:11434" style. Default:
	// Env.OllamaHost, else http://127.0.0.1:11434.
	Host string
	// BaseURL is the OpenAI-compatible server, "http://host:port/v1".
	// Default Env.BaseURL. A bare host gets "/v1".
	BaseURL string
	// APIKey is sent as a bearer token to the OpenAI-compatible server,
	// never to Ollama. Default Env.APIKey with the openai provider. It is
	// never logged, written or shown.
	APIKey string `json:"-"`
	// Env is what the command read from the environment: the defaults of
	// the fields above. The agent reads no environment itself.
	Env Env `json:"-"`
	// Model is the model's name. Default DefaultModel with Ollama; the
	// openai provider has no default.
	Model string
	// NumCtx is the context window asked of Ollama (num_ctx). Default 16384.
	NumCtx int
	// MaxHops is the number of model turns that may call tools. Default 8.
	MaxHops int
	// MaxToolCalls caps tool executions per question. Default 16.
	MaxToolCalls int
	// MaxContextChars caps the characters of the conversation (prompt and
	// tool results). Default 3 characters per token of NumCtx, less room
	// for the answer.
	MaxContextChars int
	// Timeout is the wall time of one Ask. Default 3 minutes. Tools stop
	// at 3/4 of it so that the model still has time to answer.
	Timeout time.Duration
	// RequestTimeout bounds one model turn (one HTTP request). Default 2
	// minutes; never more than what is left of Timeout.
	RequestTimeout time.Duration
	// KeepAlive is Ollama's keep_alive ("10m", "-1", "0"). Default "10m".
	KeepAlive string
	// Think enables a thinking model's reasoning phase. Default false.
	Think bool
	// NoModel answers in retrieval mode without contacting Ollama.
	NoModel bool
	// Logger receives structured logs. Default slog.Default().
	Logger *slog.Logger
}

// Env holds the environment's defaults of the model server's address and
// key, as the command read them ($OLLAMA_HOST, $OPENAI_BASE_URL,
// $ASKLS_API_KEY else $OPENAI_API_KEY).
type Env struct {
	// OllamaHost is the default of Config.Host.
	OllamaHost string
	// BaseURL is the default of Config.BaseURL with the openai provider.
	BaseURL string
	// APIKey is the default of Config.APIKey with the openai provider
	// only: a key meant for an OpenAI-compatible server never goes to
	// Ollama, whichever provider a client switches to.
	APIKey string `json:"-"`
}

// Question is what the user asked; Path/Line/Col (optional) are where the
// cursor is (index path, 1-based line and column).
type Question struct {
	Text string
	Path string
	Line int
	Col  int
}

// Events stream the work of an Ask. Either may be nil. They are called from
// the goroutine that called Ask.
type Events struct {
	// Step is called after each tool call.
	Step func(tools.Step)
	// Delta is called with answer text as it arrives, citation markers
	// already checked and renumbered as they will be in Result.Answer.
	Delta func(text string)
}

// Result is one answer. Its JSON form is the askls/ask result of
// docs/protocol.md without LSP Locations (the lsp package adds those).
type Result struct {
	ID        string               `json:"id"`
	Question  string               `json:"question"`
	Answer    string               `json:"answer"`
	Citations []citations.Citation `json:"citations"`
	Refused   bool                 `json:"refused"`
	Mode      string               `json:"mode"` // "model" | "retrieval"
	Model     string               `json:"model,omitempty"`
	Steps     []tools.Step         `json:"steps"`
	Stats     Stats                `json:"stats"`
	Notice    string               `json:"notice,omitempty"` // e.g. why retrieval mode was used
	// Weak is set when the best evidence found does not clearly answer
	// the question; the answer's first line says so.
	Weak bool `json:"weak"`
	// Thread is the id of the thread the answer is a turn of (AskThread);
	// empty for a question asked alone.
	Thread string `json:"thread,omitempty"`
}

// Modes of a Result.
const (
	ModeModel     = "model"
	ModeRetrieval = "retrieval"
)

// Stats count the work of an Ask.
type Stats struct {
	Hops         int     `json:"hops"`
	ToolCalls    int     `json:"toolCalls"`
	PromptTokens int     `json:"promptTokens"`
	EvalTokens   int     `json:"evalTokens"`
	MS           float64 `json:"ms"`
	// ModelMS is the time Ollama reports for its turns (total_duration
	// summed: load, prompt evaluation and generation). MS - ModelMS is
	// askls's own share, transport included. Zero in retrieval mode.
	ModelMS float64 `json:"modelMs,omitempty"`
	// PromptMS and EvalMS split ModelMS as Ollama reports them.
	PromptMS float64 `json:"promptMs,omitempty"`
	EvalMS   float64 `json:"evalMs,omitempty"`
}
