// Package clientlog is the language server's log as the editor sees it:
// a slog handler that turns records into window/logMessage notifications
// at the level the client configured, sent on their own goroutine through
// a bounded buffer (a slow client loses lines, counted, and never blocks
// a handler), and Tee, which sends stderr only what the client's log does
// not take (editors show every stderr line as an error).
//
// Concurrency: a *Log and its handlers are safe for concurrent use; Run
// is called once.
package clientlog
