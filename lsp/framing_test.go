package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer collects the server's log lines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveRaw runs Serve on a pipe, writes raw to it, and returns Serve's
// error and the server's log.
func serveRaw(t *testing.T, raw func(w io.Writer)) (string, error) {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	var log lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), serverEnd, Options{Logger: slog.New(slog.NewTextHandler(&log, nil)), CacheDir: t.TempDir()})
	}()
	go io.Copy(io.Discard, clientEnd)
	go func() { raw(clientEnd) }()
	select {
	case err := <-done:
		clientEnd.Close()
		return log.String(), err
	case <-time.After(30 * time.Second):
		clientEnd.Close()
		t.Fatalf("the server neither answered nor ended; log:\n%s", log.String())
		return "", nil
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const symbolCall = `{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"x"}}`

// TestFramingErrorsEndTheConnection: a Content-Length that does not match
// its message, or a header line that never ends, ends the connection with
// a clear log line and an error (askls serve exits 1). Before, a wrong
// Content-Length desynchronised the stream silently and for good, and a
// header without a newline grew memory without limit.
func TestFramingErrorsEndTheConnection(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`
	for _, tc := range []struct {
		name string
		raw  func(w io.Writer)
		want string
	}{
		{"Content-Length too short", func(w io.Writer) {
			io.WriteString(w, "Content-Length: 10\r\n\r\n"+body+frame(symbolCall))
		}, "is shorter than its message"},
		{"Content-Length too short, the rest arriving later", func(w io.Writer) {
			io.WriteString(w, "Content-Length: 10\r\n\r\n"+body[:10])
			time.Sleep(50 * time.Millisecond)
			io.WriteString(w, body[10:]+frame(symbolCall))
		}, "is not a header line"},
		{"Content-Length too long", func(w io.Writer) {
			io.WriteString(w, fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)+40)+body+frame(symbolCall))
		}, "is longer than its message"},
		{"a header line that never ends", func(w io.Writer) {
			chunk := strings.Repeat("A", 64<<10)
			for i := 0; i < 300<<20/len(chunk); i++ {
				if _, err := io.WriteString(w, chunk); err != nil {
					return // the server ended the connection
				}
			}
		}, "a header line longer than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			log, err := serveRaw(t, tc.raw)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Serve = %v, want an error saying %q", err, tc.want)
			}
			if !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "out of step") || !strings.Contains(log, tc.want) {
				t.Errorf("no clear log line:\n%s", log)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 64<<20 {
				t.Errorf("heap grew by %d MB", grown>>20)
			}
		})
	}
}

// TestMalformedJSONWithRightFramingIsSkipped: a body that is not JSON but
// whose length is right (the next frame follows) is skipped, as before.
func TestMalformedJSONWithRightFramingIsSkipped(t *testing.T) {
	log, err := serveRaw(t, func(w io.Writer) {
		io.WriteString(w, frame(`{"jsonrpc":"2.0","id":1,"method":`)+frame(`{"jsonrpc":"2.0","method":"exit"}`))
	})
	if err == nil || !strings.Contains(err.Error(), "exit without shutdown") {
		t.Errorf("Serve = %v, want the exit to be read after the skipped frame", err)
	}
	if strings.Contains(log, "out of step") {
		t.Errorf("a framing error for a well-framed bad message:\n%s", log)
	}
}
