package secret

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler wraps h so that every log line is masked as RedactString masks
// text: its message and every string, error and Stringer value (a URL's
// password, a bearer token, a key in an error body), in the record and in
// the attributes added with With. Loggers that write to stderr, a file or
// an editor's log wrap their handler with it.
func Handler(h slog.Handler) slog.Handler {
	if _, ok := h.(redactHandler); ok {
		return h
	}
	return redactHandler{h}
}

type redactHandler struct{ h slog.Handler }

func (r redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, RedactString(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactHandler{r.h.WithAttrs(red)}
}

func (r redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{r.h.WithGroup(name)}
}

// redactAttr masks a's value when it is text: a string, an error, a
// Stringer, or a group holding them.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, RedactString(v.String()))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, x := range g {
			red[i] = redactAttr(x)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, RedactString(x.Error()))
		case fmt.Stringer:
			return slog.String(a.Key, RedactString(x.String()))
		case []string:
			red := make([]string, len(x))
			for i, s := range x {
				red[i] = RedactString(s)
			}
			return slog.Any(a.Key, red)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
