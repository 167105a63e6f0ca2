package clientlog

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Editors show every stderr line as an error: stderr gets errors and what
// the client's log does not take; the rest goes to the client only.
func TestStderrGetsOnlyWhatTheClientDoesNotTake(t *testing.T) {
	var stderr bytes.Buffer
	clientLevel := new(slog.LevelVar) // info
	got := make(chan Message, 16)
	cl := New(clientLevel, func(m Message) { got <- m })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go cl.Run(ctx)
	log := slog.New(Tee(slog.NewTextHandler(&stderr, &slog.HandlerOptions{Level: slog.LevelDebug}), cl.Handler()))

	log.Info("indexed", "files", 3)
	log.Warn("a bad setting")
	log.Error("cannot write the cache")
	log.Debug("a detail")

	var client []string
	for len(client) < 3 {
		select {
		case m := <-got:
			client = append(client, m.Message)
		case <-time.After(5 * time.Second):
			t.Fatalf("the client got %q", client)
		}
	}
	joined := strings.Join(client, "\n")
	for _, want := range []string{"indexed", "a bad setting", "cannot write the cache"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the client's log lacks %q: %q", want, client)
		}
	}
	out := stderr.String()
	if strings.Contains(out, "indexed") || strings.Contains(out, "a bad setting") {
		t.Errorf("information and warnings reached stderr:\n%s", out)
	}
	if !strings.Contains(out, "cannot write the cache") || !strings.Contains(out, "a detail") {
		t.Errorf("stderr lacks the error or the debug line the client does not take:\n%s", out)
	}
}
