// Package child starts a server as a child process that speaks on its
// standard input and output, for the test clients (internal/lspclient,
// internal/mcpclient): the pipes are the caller's own rather than
// cmd.StdoutPipe's, which cmd.Wait would close when the process exits,
// maybe before its last message was read.
//
// Concurrency: Start is safe to call from any goroutine; what it returns
// belongs to the caller.
package child
