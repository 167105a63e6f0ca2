// Package agent turns a question into a cited answer. It runs a tool-calling
// loop (loop.go, toolcall.go) with a model behind a model.Provider
// (package model: Ollama's native API or any OpenAI-compatible server);
// the loop does not know which. The model searches, greps, reads and
// outlines the workspace through the read-only tools of package tools,
// confined to one index snapshot, within budgets (hops, tool calls,
// context characters, wall time), and its answer is checked by the
// citations package before it leaves. Without a reachable model (or with
// Config.NoModel) it answers in retrieval mode (package retrieval):
// ranked, cited evidence, never presented as a model's answer.
//
// Threads (thread.go): AskThread answers a follow-up as the next turn of
// a Thread. The model sees the earlier turns within half the context
// budget (the newest whole, older ones summarised or left out) and the
// thread's evidence under numbers unique within the thread; an earlier
// citation is re-checked against the current content like any other.
// Retrieval mode builds on the previous answer's main symbol. The thread
// store (package thread) keeps threads on disk.
//
// The agent reads no environment: the command hands it the model
// server's defaults as Config.Env. RunTool, FindReferences and
// FindImplementations (tools.go) give the front ends the tools of package
// tools under the agent's names.
//
// Packages below it, imported one way: model (the providers), tools (the
// tools over a snapshot), retrieval (the answer without a model), unit
// (weighing code against a question); none imports agent.
//
// Concurrency: an *Agent is safe for concurrent use; each Ask has its own
// state; a *Thread is not (one AskThread at a time per thread). Events
// callbacks run on the goroutine that called Ask. Providers are safe for
// concurrent use.
package agent
