package model

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"syscall"
)

// Health is what `askls doctor` and askls.status show about the model.
type Health struct {
	Provider     string `json:"provider"` // "ollama" | "openai"
	Host         string `json:"host"`     // Ollama's host or the OpenAI-compatible base URL
	Reachable    bool   `json:"reachable"`
	Version      string `json:"version,omitempty"`
	Model        string `json:"model"`
	ModelPresent bool   `json:"modelPresent"`
	Tools        bool   `json:"tools"` // Ollama says so; an OpenAI-compatible server cannot be asked

	ContextLength int      `json:"contextLength,omitempty"`
	NumCtx        int      `json:"numCtx"`
	Models        []string `json:"models,omitempty"`   // what an OpenAI-compatible server serves (the first 20)
	Problems      []string `json:"problems,omitempty"` // each says what to run to fix it
}

// sameModel compares model names, "name" meaning "name:latest".
func sameModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			s += ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}

// shortErr says why a request failed in a few words when the reason is
// that nothing answers at the host, and in full otherwise.
func shortErr(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dns) && dns.IsNotFound:
		return "no such host"
	}
	return err.Error()
}

// isJSONError reports whether err is a reply body that does not decode as
// the JSON asked for: not JSON at all, cut short, or of another shape.
func isJSONError(err error) bool {
	var syntax *json.SyntaxError
	var shape *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &shape)
}
