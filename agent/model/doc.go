// Package model talks to the model server for the agent: one Provider per
// API, Ollama's native one (github.com/ollama/ollama/api, ollama.go) and
// any OpenAI-compatible server (openai.go, its wire in openaiwire.go),
// built by New from a Config. A provider moves one model turn over its
// wire (Chat, streamed text and whole tool calls), checks quickly that the
// server answers (Probe) and reports what `askls doctor` shows (Health).
// ChatWithRetry retries a turn the server refused as overloaded, before
// any of its text was streamed.
//
// Errors a user can act on are *ModelError: they name the server and what
// to run or set, and never hold a credential: the API key and the
// credentials of an address are masked (Scrub, ShownURL) before any
// message leaves. The API key goes to the OpenAI-compatible server only,
// never to Ollama.
//
// The package knows nothing of the agent's loop, its tools or citations;
// it reads no environment (the caller fills Config).
//
// Concurrency: a Provider is safe for concurrent use; each Chat has its
// own request.
package model
