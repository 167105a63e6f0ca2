package agent

import (
	"log/slog"
	"time"

	"github.com/askls/askls/agent/model"
)

// Defaults of Config.
const (
	DefaultHost           = "http://127.0.0.1:11434"
	DefaultNumCtx         = 16384
	DefaultMaxHops        = 8
	DefaultMaxToolCalls   = 16
	DefaultTimeout        = 3 * time.Minute
	DefaultRequestTimeout = 2 * time.Minute
	DefaultKeepAlive      = "10m"
)

// withDefaults fills in the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Provider == "" {
		c.Provider = model.ProviderOllama
	}
	if c.Host == "" {
		c.Host = c.Env.OllamaHost
	}
	if c.Host == "" {
		c.Host = DefaultHost
	}
	if c.Provider == model.ProviderOpenAI {
		// The environment's address and key are the OpenAI-compatible
		// server's: never sent to Ollama.
		if c.BaseURL == "" {
			c.BaseURL = c.Env.BaseURL
		}
		if c.APIKey == "" {
			c.APIKey = c.Env.APIKey
		}
	}
	if c.Model == "" && c.Provider == model.ProviderOllama {
		c.Model = DefaultModel
	}
	if c.NumCtx <= 0 {
		c.NumCtx = DefaultNumCtx
	}
	if c.MaxHops <= 0 {
		c.MaxHops = DefaultMaxHops
	}
	if c.MaxToolCalls <= 0 {
		c.MaxToolCalls = DefaultMaxToolCalls
	}
	if c.MaxContextChars <= 0 {
		// About 3 characters a token for code, less a quarter of the
		// window for the answer.
		c.MaxContextChars = c.NumCtx * 3 * 3 / 4
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.KeepAlive == "" {
		c.KeepAlive = DefaultKeepAlive
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// modelConfig is what the provider needs of c.
func (c Config) modelConfig() model.Config {
	return model.Config{
		Provider: c.Provider, Host: c.Host, BaseURL: c.BaseURL, APIKey: c.APIKey,
		Model: c.Model, NumCtx: c.NumCtx, KeepAlive: c.KeepAlive, Think: c.Think,
	}
}
