// Package tools owns the agent's read-only tools over one index snapshot:
// search_code, grep, read_file, list_files, find_symbol, find_references
// and outline (tools.go, references_tool.go, implementations_tool.go).
// A Box runs them for one question: it reads files through a Source
// (*index.Snapshot, or a fake), keeps each file's lines for the question,
// and registers every span it shows in a citations.Registry, printed as
// "[n] path:start-end" with numbered lines, so that an answer can cite
// only what a tool returned. Args are the model's arguments, checked with
// messages the model can act on; Specs describes the tools to the model;
// Run runs one tool outside a question (the MCP server).
//
// FindReferences (references.go) and FindImplementations
// (implementations.go, heritage.go, implements_go.go, implements_embed.go)
// answer from the code where a name occurs outside comments and strings
// (codescan.go) and which types implement or extend a type: the files the
// index says hold a name, read on GOMAXPROCS goroutines within the call.
//
// Concurrency: a *Box belongs to one question (one goroutine); the
// functions that take a snapshot (Run, FindReferences,
// FindImplementations, RefQueryAt, ImplementableAt) are safe for
// concurrent use.
package tools
