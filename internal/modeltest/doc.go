// Package modeltest runs fake model servers for askls's Go tests: a fake
// Ollama (/api/chat as NDJSON, /api/version, /api/tags, /api/show) and a
// fake OpenAI-compatible server (/v1/chat/completions as server-sent
// events, /v1/models), both on loopback, speaking the real wire formats
// and their real error shapes. Both play the same script: each chat
// request is answered by the next Turn, which sees the request in a
// neutral form (so that it can cite the evidence numbers the tools
// printed). The OpenAI fake can also split tool-call deltas across
// chunks, leave out ids, mix a tool call and text in one chunk, demand an
// API key, answer 429 or fail mid-stream.
//
// The real-Ollama harness is internal/ollamatest; this package is the
// fake that unit tests use where no model server can run.
//
// Concurrency: a Server is safe for concurrent use; its script is played
// in the order requests arrive.
package modeltest
