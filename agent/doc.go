// Package agent turns a question into a cited answer. It runs a tool-calling
// loop with a model behind a Provider: Ollama's native API
// (github.com/ollama/ollama/api, ollama.go) or any OpenAI-compatible server
// (openai.go, its wire in openaiwire.go); the loop does not know which.
// The model searches, greps, reads and outlines the workspace through
// read-only tools confined to one index snapshot, within budgets (hops, tool
// calls, context characters, wall time), and its answer is checked by the
// citations package before it leaves. Without a reachable model (or with
// Config.NoModel) it answers in retrieval mode: ranked, cited evidence,
// never presented as a model's answer.
//
// Threads (thread.go, followup.go): AskThread answers a follow-up as the
// next turn of a Thread. The model sees the earlier turns within half the
// context budget (the newest whole, older ones summarised or left out)
// and the thread's evidence under numbers unique within the thread; an
// earlier citation is re-checked against the current content like any
// other. Retrieval mode builds on the previous answer's main symbol. The
// thread store (package thread) keeps threads on disk.
//
// RunTool runs one of the same tools outside an Ask, for other front ends
// (the MCP server). FindReferences (references.go) and
// FindImplementations (implementations.go, heritage.go, implements_go.go,
// implements_embed.go) answer the language server's
// textDocument/references and textDocument/implementation from the code:
// the files the index says hold a name, read on GOMAXPROCS goroutines
// within the call.
//
// Concurrency: an *Agent is safe for concurrent use; each Ask has its own
// state; a *Thread is not (one AskThread at a time per thread). Events callbacks run on the goroutine that called Ask. Providers
// are safe for concurrent use.
package agent
