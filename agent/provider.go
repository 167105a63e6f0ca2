package agent

import "github.com/askls/askls/agent/model"

// The model server's settings and report, as the front ends name them;
// the providers themselves are package model's.
const (
	// DefaultModel is the model used when Config.Model is empty with
	// Ollama.
	DefaultModel = model.DefaultModel

	ProviderOllama = model.ProviderOllama
	ProviderOpenAI = model.ProviderOpenAI
)

// Health is what `askls doctor` and askls.status show about the model.
type Health = model.Health

// ShownURL is raw (a server address) as askls shows it: with user info
// and key-like query parameters masked.
func ShownURL(raw string) string { return model.ShownURL(raw) }
