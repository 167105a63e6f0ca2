package settings

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/askls/askls/agent"
)

// MaxAnswers is how many answers the server keeps, the most
// keepCitations may show.
const MaxAnswers = 32

// Config is what a client may set through initializationOptions and
// workspace/didChangeConfiguration. Missing keys keep their current value.
type Config struct {
	Provider   string `json:"provider"` // "ollama" | "openai"; "" keeps the server's default
	Model      string `json:"model"`
	OllamaHost string `json:"ollamaHost"`
	BaseURL    string `json:"baseUrl"` // the OpenAI-compatible server, ".../v1"
	// APIKey is the OpenAI-compatible server's key. It is never shown in
	// askls.status nor logged; without it the server's $ASKLS_API_KEY
	// (else $OPENAI_API_KEY) is used.
	APIKey                 string   `json:"-"`
	NumCtx                 int      `json:"numCtx"`
	MaxHops                int      `json:"maxHops"`
	TimeoutSeconds         int      `json:"timeoutSeconds"`
	Exclude                []string `json:"exclude"`
	MaxFileBytes           int64    `json:"maxFileBytes"`
	CodeLens               bool     `json:"codeLens"`
	CitationsAsDiagnostics string   `json:"citationsAsDiagnostics"` // "auto" | "always" | "never"
	KeepCitations          int      `json:"keepCitations"`          // how many of the newest answers show their citations
	LogLevel               string   `json:"logLevel"`               // "debug" | "info" | "warn" | "error"
}

// Default is the configuration before the client says anything.
func Default() Config {
	return Config{
		TimeoutSeconds:         120,
		CodeLens:               true,
		CitationsAsDiagnostics: "auto",
		KeepCitations:          1,
		LogLevel:               "info",
	}
}

// Merge applies the settings object raw on top of c. raw may be the
// settings themselves or wrapped as {"askls": {...}} (what most clients
// send for didChangeConfiguration). Booleans may also be given as
// citationsAsDiagnostics: true/false.
func (c Config) Merge(raw json.RawMessage) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "[]" { // [] is how Lua encodes {}
		return c, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return c, fmt.Errorf("settings must be an object: %w", err)
	}
	if inner, ok := obj["askls"]; ok {
		if err := json.Unmarshal(inner, &obj); err != nil {
			return c, fmt.Errorf("settings.askls must be an object: %w", err)
		}
	}
	out := c
	// json.Unmarshal decodes an array into the slice it is given, reusing
	// its backing array: c.Exclude may be read elsewhere (askls.status,
	// the workspace), so out gets a copy of its own.
	out.Exclude = slices.Clone(c.Exclude)
	var problems []string
	set := func(key string, dst any) {
		v, ok := obj[key]
		if !ok || string(v) == "null" {
			return
		}
		if err := json.Unmarshal(v, dst); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", key, err))
		}
	}
	set("provider", &out.Provider)
	set("model", &out.Model)
	set("ollamaHost", &out.OllamaHost)
	set("baseUrl", &out.BaseURL)
	set("apiKey", &out.APIKey)
	set("numCtx", &out.NumCtx)
	set("maxHops", &out.MaxHops)
	set("timeoutSeconds", &out.TimeoutSeconds)
	set("exclude", &out.Exclude)
	set("maxFileBytes", &out.MaxFileBytes)
	set("codeLens", &out.CodeLens)
	set("keepCitations", &out.KeepCitations)
	set("logLevel", &out.LogLevel)
	if v, ok := obj["citationsAsDiagnostics"]; ok && string(v) != "null" {
		var b bool
		if err := json.Unmarshal(v, &b); err == nil {
			out.CitationsAsDiagnostics = map[bool]string{true: "always", false: "never"}[b]
		} else {
			set("citationsAsDiagnostics", &out.CitationsAsDiagnostics)
		}
	}
	switch out.Provider {
	case "", "ollama", "openai":
	default:
		problems = append(problems, fmt.Sprintf("provider: want ollama or openai, got %q", out.Provider))
		out.Provider = c.Provider
	}
	switch out.CitationsAsDiagnostics {
	case "auto", "always", "never":
	default:
		problems = append(problems, fmt.Sprintf("citationsAsDiagnostics: want auto, always, never or a boolean, got %q", out.CitationsAsDiagnostics))
		out.CitationsAsDiagnostics = c.CitationsAsDiagnostics
	}
	if out.NumCtx < 0 || out.MaxHops < 0 || out.TimeoutSeconds < 0 || out.MaxFileBytes < 0 {
		problems = append(problems, "numCtx, maxHops, timeoutSeconds and maxFileBytes must not be negative")
		out.NumCtx, out.MaxHops, out.TimeoutSeconds, out.MaxFileBytes = c.NumCtx, c.MaxHops, c.TimeoutSeconds, c.MaxFileBytes
	}
	if out.KeepCitations < 0 || out.KeepCitations > MaxAnswers {
		problems = append(problems, fmt.Sprintf("keepCitations: want 0 to %d answers, got %d", MaxAnswers, out.KeepCitations))
		out.KeepCitations = c.KeepCitations
	}
	if _, err := ParseLevel(out.LogLevel); err != nil {
		problems = append(problems, err.Error())
		out.LogLevel = c.LogLevel
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("ignored bad settings: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// Timeout is the time limit of an answer; 0 (timeoutSeconds 0) means the
// model is not asked at all: answers are in retrieval mode.
func (c Config) Timeout() time.Duration {
	if c.TimeoutSeconds <= 0 {
		return 0
	}
	return time.Duration(c.TimeoutSeconds) * time.Second
}

// IndexChanged reports whether going from c to n needs the index reopened.
func (c Config) IndexChanged(n Config) bool {
	return c.MaxFileBytes != n.MaxFileBytes || strings.Join(c.Exclude, "\x00") != strings.Join(n.Exclude, "\x00")
}

func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("logLevel: want debug, info, warn or error, got %q", s)
	}
	return l, nil
}

// Agent is base (the command's agent configuration) with what c sets
// over it; log is the agent's logger.
func (c Config) Agent(base agent.Config, log *slog.Logger) agent.Config {
	a := base
	if c.Model != "" {
		a.Model = c.Model
	}
	if c.OllamaHost != "" {
		a.Host = c.OllamaHost
	}
	if c.Provider != "" {
		a.Provider = c.Provider
	}
	if c.BaseURL != "" {
		a.BaseURL = c.BaseURL
	}
	if c.APIKey != "" {
		a.APIKey = c.APIKey
	}
	if c.NumCtx > 0 {
		a.NumCtx = c.NumCtx
	}
	if c.MaxHops > 0 {
		a.MaxHops = c.MaxHops
	}
	if t := c.Timeout(); t > 0 {
		a.Timeout = t
	} else {
		// timeoutSeconds 0: no time for the model. Answers come from
		// retrieval mode at once; no model server is contacted (a silent
		// one was waited on for the default two minutes per turn).
		a.NoModel = true
	}
	a.Logger = log
	return a
}
