// Package mcp serves askls over the Model Context Protocol (the official
// Go SDK, github.com/modelcontextprotocol/go-sdk), so that agents and
// editors that speak MCP can search and ask about a workspace. It is a
// front end of workspace.Workspace (the same incremental, persisted index
// and the same ask as the language server's, for the roots given or the
// client's roots, kept current by the workspace's file watcher) and
// exposes:
//
//   - the agent's read-only tools (search_code, grep, read_file,
//     list_files, find_symbol, outline) under the same names and
//     arguments the model sees, with the same confinement and size caps;
//   - ask: the whole cited answer (with the configured model, or in
//     retrieval mode);
//   - file resources (file:///…) for the files of the workspace, so that
//     a client can open a cited location.
//
// Everything is read-only. A bad argument is a tool error result the
// client's model can act on; a panic in a handler is recovered.
//
// Concurrency: a Server is safe for concurrent use by several sessions;
// they share one index.
package mcp
