package framing

import (
	"bufio"
	"bytes"
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

	read int64 // bytes read so far (Read's goroutine only)

	wmu sync.Mutex
}

// NewStream is the LSP base protocol over rwc; log hears of the frames it
// skips and of the error that ends the connection.
func NewStream(rwc io.ReadWriteCloser, log *slog.Logger) jsonrpc2.Stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log}
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			var fe *framingError
			if errors.As(err, &fe) {
				s.log.Error("ending the connection: "+fe.Error()+"; the client must restart the server", "after bytes", fe.offset)
			}
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

// maxHeaderLine bounds one header line: a longer one means the stream is
// not LSP (or out of step), and reading on would grow without limit.
const maxHeaderLine = 4096

// framingError says the byte stream is out of step with its frames (a
// Content-Length that does not match its message, a header line that is
// not one): the next message cannot be found, so the connection ends.
type framingError struct {
	msg    string
	offset int64 // bytes read on this connection before the error
}

func (e *framingError) Error() string { return "the LSP stream is out of step: " + e.msg }

func (s *stream) framing(format string, args ...any) error {
	return &framingError{msg: fmt.Sprintf(format, args...), offset: s.read}
}

func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := -1
	defer func() { s.read += total }()
	for {
		line, err := s.headerLine()
		total += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && total == 0 {
				return nil, total, io.EOF
			}
			var fe *framingError
			if errors.As(err, &fe) {
				return nil, total, err
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
		if !ok || !headerName(strings.TrimSpace(name)) {
			return nil, total, s.framing("%q is not a header line (a Content-Length that does not match the message before it?)", cut(line, 80))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n <= 0 || n > maxFrame {
				return nil, total, s.framing("invalid Content-Length %q", cut(value, 40))
			}
			length = n
		}
	}
	// Read as the bytes arrive: a Content-Length alone does not allocate
	// its size.
	body, err := io.ReadAll(io.LimitReader(s.in, int64(length)))
	total += int64(len(body))
	if err == nil && len(body) < length {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, total, fmt.Errorf("reading a %d-byte message: %w", length, err)
	}
	if !json.Valid(body) {
		// A body that is not JSON may just be a bad message, or the sign
		// of a Content-Length that does not match: look at what follows.
		if bytes.Contains(body, []byte("Content-Length:")) {
			return nil, total, s.framing("Content-Length %d is longer than its message (the next message's header is inside it)", length)
		}
		if next, _ := s.in.Peek(min(s.in.Buffered(), 16)); len(next) > 0 && !looksLikeHeader(next) {
			return nil, total, s.framing("Content-Length %d is shorter than its message (%q follows it)", length, cut(string(next), 16))
		}
	}
	return body, total, nil
}

// headerLine reads one header line, at most maxHeaderLine bytes.
func (s *stream) headerLine() (string, error) {
	var line []byte
	for {
		part, err := s.in.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxHeaderLine {
			return string(line[:64]), s.framing("a header line longer than %d bytes", maxHeaderLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(line), err
	}
}

// headerName: the characters of an HTTP-style header name.
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// looksLikeHeader: b may start a frame (a header name, or the blank
// line that ends the headers).
func looksLikeHeader(b []byte) bool {
	for i, c := range b {
		if c == ':' && i > 0 {
			return true
		}
		if c == '\r' || c == '\n' {
			return i == 0
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true // a name not yet complete
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
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
