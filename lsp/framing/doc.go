// Package framing is the LSP base protocol of askls's language server:
// Content-Length framed JSON-RPC over a byte stream, as a jsonrpc2.Stream.
// Unlike jsonrpc2.NewStream it skips (and logs) a frame whose body is not
// a JSON-RPC message, since the next frame can still be found, and ends
// the connection with a clear error when the stream is out of step with
// its frames (a Content-Length that does not match its message, a header
// line that is not one). A frame's size is bounded; a Content-Length alone
// allocates nothing.
//
// Concurrency: Read belongs to one goroutine (jsonrpc2's read loop);
// Write is safe for concurrent use.
package framing
