package lsp

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
)

// Logging goes to two places: the handler the caller passed in Options
// (stderr for askls serve; never stdout, which carries the protocol) and the
// client's window/logMessage at the level the client configured.

// teeHandler sends each record to b (the client) and to a (stderr) when it
// is an error or b does not take it: editors show every stderr line as an
// error, so information and warnings go to stderr only when the client's
// log does not receive them.
type teeHandler struct{ a, b slog.Handler }

func (t teeHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return t.a.Enabled(ctx, l) || t.b.Enabled(ctx, l)
}

func (t teeHandler) Handle(ctx context.Context, r slog.Record) error {
	toClient := t.b.Enabled(ctx, r.Level)
	if t.a.Enabled(ctx, r.Level) && (r.Level >= slog.LevelError || !toClient) {
		_ = t.a.Handle(ctx, r.Clone())
	}
	if toClient {
		_ = t.b.Handle(ctx, r)
	}
	return nil
}

func (t teeHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return teeHandler{t.a.WithAttrs(as), t.b.WithAttrs(as)}
}

func (t teeHandler) WithGroup(name string) slog.Handler {
	return teeHandler{t.a.WithGroup(name), t.b.WithGroup(name)}
}

// clientLog forwards log lines as window/logMessage notifications. Sending
// happens on its own goroutine through a bounded buffer: logging never
// blocks a handler, and lines are dropped (and counted) when the client
// does not keep up.
type clientLog struct {
	level *slog.LevelVar
	out   chan LogMessageParams
	send  func(LogMessageParams)

	mu      sync.Mutex
	dropped int
}

func newClientLog(level *slog.LevelVar, send func(LogMessageParams)) *clientLog {
	return &clientLog{level: level, out: make(chan LogMessageParams, 256), send: send}
}

func (c *clientLog) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-c.out:
			c.send(m)
		}
	}
}

func (c *clientLog) post(m LogMessageParams) {
	select {
	case c.out <- m:
	default:
		c.mu.Lock()
		c.dropped++
		c.mu.Unlock()
	}
}

// handler returns an slog.Handler writing text lines to c.
func (c *clientLog) handler() slog.Handler {
	return &clientLogHandler{c: c, attrs: nil}
}

type clientLogHandler struct {
	c     *clientLog
	attrs []slog.Attr
	group string
}

func (h *clientLogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.c.level.Level()
}

func (h *clientLogHandler) Handle(_ context.Context, r slog.Record) error {
	var buf bytes.Buffer
	th := slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{} // the client adds its own time and level
			}
			return a
		},
	})
	var hh slog.Handler = th.WithAttrs(h.attrs)
	if h.group != "" {
		hh = hh.WithGroup(h.group)
	}
	_ = hh.Handle(context.Background(), r)
	typ := 4
	switch {
	case r.Level >= slog.LevelError:
		typ = 1
	case r.Level >= slog.LevelWarn:
		typ = 2
	case r.Level >= slog.LevelInfo:
		typ = 3
	}
	h.c.post(LogMessageParams{Type: typ, Message: string(bytes.TrimRight(buf.Bytes(), "\n"))})
	return nil
}

func (h *clientLogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &clientLogHandler{c: h.c, attrs: append(append([]slog.Attr(nil), h.attrs...), as...), group: h.group}
}

func (h *clientLogHandler) WithGroup(name string) slog.Handler {
	return &clientLogHandler{c: h.c, attrs: h.attrs, group: name}
}
