// Package lspclient is the one LSP client of askls's tests and of the lab
// (askls-bench serve): it talks JSON-RPC 2.0 with Content-Length framing
// to a server on the other end of a pipe (Pipe, with the server in this
// process) or on a child process's stdio (Exec).
//
// It owns:
//
//   - client.go: the connection, the read loop and the capture of every
//     message the server sends (notifications, its own requests, replies),
//     in the order they arrived; the server's requests are answered by
//     Options.Answer (null by default).
//   - wait.go: waiting for an event: a captured message that matches a
//     predicate, or a condition over all captured messages. A wait ends
//     when the event arrives, when the server's output ends, or when its
//     context ends; a context without a deadline gets Options.Patience,
//     which only keeps a hung server from hanging a test. Nothing polls.
//   - send.go: requests (synchronous, or sent now and awaited later by
//     their id, so that a test can cancel one), notifications, and raw
//     bytes for the tests of framing errors.
//   - start.go: starting a server over a pipe or as a child process,
//     shutdown and exit, and closing the connection.
//
// go.lsp.dev/jsonrpc2 does the framing and the message types
// (jsonrpc2.Stream); its Conn is not used because it hides request ids
// (a test cannot cancel a request it cannot name), cannot send a request
// without blocking for its reply, and hands replies to the caller rather
// than recording them in order among the notifications.
//
// A *Client is safe for concurrent use: any goroutine may send and wait.
package lspclient
