// Package agent turns a question into a cited answer. It runs a tool-calling
// loop with a local model served by Ollama (github.com/ollama/ollama/api):
// the model searches, greps, reads and outlines the workspace through
// read-only tools confined to one index snapshot, within budgets (hops, tool
// calls, context characters, wall time), and its answer is checked by the
// citations package before it leaves. Without a reachable model (or with
// Config.NoModel) it answers in retrieval mode: ranked, cited evidence,
// never presented as a model's answer.
//
// Concurrency: an *Agent is safe for concurrent use; each Ask has its own
// state. Events callbacks run on the goroutine that called Ask.
package agent
