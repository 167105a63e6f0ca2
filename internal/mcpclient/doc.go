// Package mcpclient is the raw MCP client of askls's tests: JSON-RPC 2.0
// one message a line, MCP's stdio transport, to a server in this process
// (Pipe) or on a child process's stdio (Exec). The tests that speak MCP
// as a client would use the official SDK's client; this one is for what
// no SDK client sends: lines that are not JSON, wrong ids, oversized
// messages, written as they are.
//
// It owns:
//
//   - client.go: the connection, the read loop and the capture of every
//     line the server writes, decoded, in order; lines written raw
//     (Send), requests and notifications.
//   - wait.go: the next message in order (Next), or the first one that
//     matches a predicate (Wait). A wait ends when the message arrives,
//     when the server's output ends, or when its context ends; a context
//     without a deadline gets the client's patience, which only keeps a
//     hung server from hanging a test. Nothing polls.
//
// It answers none of the server's requests: the raw tests need none.
// go.lsp.dev/jsonrpc2 is not used: its decoder refuses a reply whose id
// is null, the very replies these tests read.
//
// A *Client is safe for concurrent use.
package mcpclient
