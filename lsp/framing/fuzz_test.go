package framing

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const symbolCall = `{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"x"}}`

type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }

// FuzzFrameReader: any byte stream gives messages and then one error, no
// panic, never more messages than frames, and no message larger than its
// stream.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte(frame(symbolCall) + frame(`{"jsonrpc":"2.0","method":"exit"}`)))
	f.Add([]byte("Content-Length: 10\r\n\r\n" + symbolCall))
	f.Add([]byte("Content-Length: 99999999\r\n\r\n{}"))
	f.Add([]byte("content-length: 2\r\nContent-Type: x\r\n\r\n{}\r\n" + frame(symbolCall)))
	f.Add([]byte(strings.Repeat("A", 5000)))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := NewStream(rwc{bytes.NewReader(data), io.Discard}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		frames := strings.Count(strings.ToLower(string(data)), "content-length")
		n := 0
		for {
			_, size, err := st.Read(context.Background())
			if err != nil {
				break
			}
			n++
			if size > int64(len(data)) {
				t.Fatalf("a message of %d bytes from a %d-byte stream", size, len(data))
			}
			if n > frames {
				t.Fatalf("%d messages from %d frames", n, frames)
			}
		}
	})
}
