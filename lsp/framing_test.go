package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/internal/lspclient"
)

// serverLog collects the server's log lines; wait waits for one.
type serverLog struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed (and replaced) at each write
}

func newServerLog() *serverLog { return &serverLog{wrote: make(chan struct{})} }

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	close(l.wrote)
	l.wrote = make(chan struct{})
	return l.b.Write(p)
}

func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// wait waits until the log holds substr (lspclient's patience at most:
// only a hung server meets it).
func (l *serverLog) wait(substr string) error {
	deadline := time.After(lspclient.DefaultPatience)
	for {
		l.mu.Lock()
		has, wrote := strings.Contains(l.b.String(), substr), l.wrote
		l.mu.Unlock()
		if has {
			return nil
		}
		select {
		case <-wrote:
		case <-deadline:
			return fmt.Errorf("the server never logged %q", substr)
		}
	}
}

// serveRaw runs Serve on a pipe, writes raw to it through the shared
// client, and returns Serve's error and the server's log.
func serveRaw(t *testing.T, raw func(c *lspclient.Client, log *serverLog)) (string, error) {
	t.Helper()
	log := newServerLog()
	c := lspclient.Pipe(func(conn io.ReadWriteCloser) error {
		return Serve(context.Background(), conn, Options{Logger: slog.New(slog.NewTextHandler(log, nil)), CacheDir: t.TempDir()})
	}, lspclient.Options{})
	defer c.Close()
	go raw(c, log)
	served, err := c.WaitExit(context.Background())
	if err != nil {
		t.Fatalf("the server neither answered nor ended: %v; log:\n%s", err, log.String())
	}
	return log.String(), served
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
		raw  func(c *lspclient.Client, log *serverLog)
		want string
	}{
		{"Content-Length too short", func(c *lspclient.Client, _ *serverLog) {
			c.WriteRaw([]byte("Content-Length: 10\r\n\r\n" + body + frame(symbolCall)))
		}, "is shorter than its message"},
		{"Content-Length too short, the rest arriving later", func(c *lspclient.Client, log *serverLog) {
			c.WriteRaw([]byte("Content-Length: 10\r\n\r\n" + body[:10]))
			// The server took the ten bytes for a message of their own,
			// and skipped it: only then does the rest arrive.
			if err := log.wait("skipping a message that is not valid JSON-RPC"); err != nil {
				t.Error(err)
				c.Close()
				return
			}
			c.WriteRaw([]byte(body[10:] + frame(symbolCall)))
		}, "is not a header line"},
		{"Content-Length too long", func(c *lspclient.Client, _ *serverLog) {
			c.WriteRaw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)+40) + body + frame(symbolCall)))
		}, "is longer than its message"},
		{"a header line that never ends", func(c *lspclient.Client, _ *serverLog) {
			chunk := []byte(strings.Repeat("A", 64<<10))
			for i := 0; i < 300<<20/len(chunk); i++ {
				if err := c.WriteRaw(chunk); err != nil {
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
	log, err := serveRaw(t, func(c *lspclient.Client, _ *serverLog) {
		c.WriteRaw([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":`) + frame(`{"jsonrpc":"2.0","method":"exit"}`)))
	})
	if err == nil || !strings.Contains(err.Error(), "exit without shutdown") {
		t.Errorf("Serve = %v, want the exit to be read after the skipped frame", err)
	}
	if strings.Contains(log, "out of step") {
		t.Errorf("a framing error for a well-framed bad message:\n%s", log)
	}
}
