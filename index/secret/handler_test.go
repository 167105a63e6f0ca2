package secret

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// TestRedactHandlerMasksEveryLogLine: the message, string, error and
// grouped values, and attributes added with With, are masked.
func TestRedactHandlerMasksEveryLogLine(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	log = log.With("host", "http://user:PASSwith9@127.0.0.1:1")
	log.Info("calling http://u:PASSmsg9@host/v1 with Bearer tok3nBEARER0123456789",
		"url", "http://127.0.0.1/v1?api_key=QUERYlog123",
		"err", errors.New("upstream failed for key sk-live-ERRkey0123456789abcdef"),
		slog.Group("cfg", "dsn", "postgres://app:PASSgroup9@db/app"),
		"n", 3)
	out := buf.String()
	for _, s := range []string{"PASSwith9", "PASSmsg9", "tok3nBEARER", "QUERYlog123", "ERRkey0123", "PASSgroup9"} {
		if strings.Contains(out, s) {
			t.Errorf("%q is logged:\n%s", s, out)
		}
	}
	if !strings.Contains(out, "n=3") || !strings.Contains(out, "127.0.0.1") {
		t.Errorf("the rest of the line is lost:\n%s", out)
	}
}
