package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message body; a larger Content-Length is treated as a
// broken stream rather than an allocation request.
const maxFrame = 256 << 20

// stream is the LSP base protocol (Content-Length framed JSON-RPC) over a
// byte stream. Unlike jsonrpc2.NewStream, a frame whose body is not a valid
// JSON-RPC message is logged and skipped instead of closing the connection:
// the frame boundaries are still known, so the next message can be read.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *slog.Logger

	wmu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser, log *slog.Logger) *stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log}
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.log.Warn("skipping a message that is not valid JSON-RPC", "err", err, "bytes", len(body))
			continue
		}
		return msg, n, nil
	}
}

func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := -1
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && total == 0 {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("reading a header line: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				continue // stray blank line between frames
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, total, fmt.Errorf("invalid header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n <= 0 || n > maxFrame {
				return nil, total, fmt.Errorf("invalid Content-Length %q", value)
			}
			length = n
		}
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, fmt.Errorf("reading a %d-byte message: %w", length, err)
	}
	return body, total, nil
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("encoding a message: %w", err)
	}
	buf := make([]byte, 0, len(data)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(data)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, data...)
	s.wmu.Lock()
	n, err := s.rwc.Write(buf)
	s.wmu.Unlock()
	if err != nil {
		return int64(n), fmt.Errorf("writing a message: %w", err)
	}
	return int64(n), nil
}

func (s *stream) Close() error { return s.rwc.Close() }
