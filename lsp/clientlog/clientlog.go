package clientlog

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
)

// Message is window/logMessage's params.
type Message struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// Logging goes to two places: the handler the caller passed in lsp.Options
// (stderr for askls serve; never stdout, which carries the protocol) and the
// client's window/logMessage at the level the client configured.

// Tee sends each record to client and to stderr when it is an error or
// client does not take it: editors show every stderr line as an error, so
// information and warnings go to stderr only when the client's log does
// not receive them.
func Tee(stderr, client slog.Handler) slog.Handler { return tee{stderr, client} }

type tee struct{ a, b slog.Handler }

func (t tee) Enabled(ctx context.Context, l slog.Level) bool {
	return t.a.Enabled(ctx, l) || t.b.Enabled(ctx, l)
}

func (t tee) Handle(ctx context.Context, r slog.Record) error {
	toClient := t.b.Enabled(ctx, r.Level)
	if t.a.Enabled(ctx, r.Level) && (r.Level >= slog.LevelError || !toClient) {
		_ = t.a.Handle(ctx, r.Clone())
	}
	if toClient {
		_ = t.b.Handle(ctx, r)
	}
	return nil
}

func (t tee) WithAttrs(as []slog.Attr) slog.Handler {
	return tee{t.a.WithAttrs(as), t.b.WithAttrs(as)}
}

func (t tee) WithGroup(name string) slog.Handler {
	return tee{t.a.WithGroup(name), t.b.WithGroup(name)}
}

// Log forwards log lines as window/logMessage notifications. Sending
// happens on its own goroutine through a bounded buffer: logging never
// blocks a handler, and lines are dropped (and counted) when the client
// does not keep up.
type Log struct {
	level *slog.LevelVar
	out   chan Message
	send  func(Message)

	mu      sync.Mutex
	dropped int
}

func New(level *slog.LevelVar, send func(Message)) *Log {
	return &Log{level: level, out: make(chan Message, 256), send: send}
}

func (c *Log) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-c.out:
			c.send(m)
		}
	}
}

func (c *Log) post(m Message) {
	select {
	case c.out <- m:
	default:
		c.mu.Lock()
		c.dropped++
		c.mu.Unlock()
	}
}

// handler returns an slog.Handler writing text lines to c.
func (c *Log) Handler() slog.Handler {
	return &clientLogHandler{c: c, attrs: nil}
}

type clientLogHandler struct {
	c     *Log
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
	h.c.post(Message{Type: typ, Message: string(bytes.TrimRight(buf.Bytes(), "\n"))})
	return nil
}

func (h *clientLogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &clientLogHandler{c: h.c, attrs: append(append([]slog.Attr(nil), h.attrs...), as...), group: h.group}
}

func (h *clientLogHandler) WithGroup(name string) slog.Handler {
	return &clientLogHandler{c: h.c, attrs: h.attrs, group: name}
}
