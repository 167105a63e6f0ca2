package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one line (one message) of the stdio transport, as
// the SDK's own limit does.
const MaxLineBytes = sdk.DefaultMaxLineLength

// maxDepth is the deepest nesting the SDK decodes; deeper ends its session.
const maxDepth = 1000

// JSON-RPC error codes of the messages the filter answers.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// LineTransport is the stdio transport of askls mcp: newline-delimited
// JSON-RPC, as the SDK's StdioTransport, behind a filter. The SDK ends the
// session on the first line it cannot decode (not JSON, not JSON-RPC 2.0,
// an id that is an object, a line over its length limit, a batch after
// protocol 2025-06-18); the filter answers such a line itself with a
// JSON-RPC error (with the line's id when it has a usable one, else null),
// logs it and goes on, so that one bad line loses nothing but itself.
type LineTransport struct {
	In  io.Reader // default os.Stdin
	Out io.Writer // default os.Stdout
	Log *slog.Logger
	// MaxLine bounds one line in bytes; 0 means MaxLineBytes.
	MaxLine int
}

// Connect implements sdk.Transport.
func (t *LineTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	log := t.Log
	if log == nil {
		log = slog.Default()
	}
	limit := t.MaxLine
	if limit <= 0 {
		limit = MaxLineBytes
	}
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	go func() {
		pw.CloseWithError(filterLines(in, pw, w, log, limit))
	}()
	// The filter bounds every line it passes on: no second limit.
	inner := &sdk.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
	return inner.Connect(ctx)
}

// lockedWriter serialises the SDK's writes and the filter's error answers,
// one whole line each.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the underlying writer (stdout) open.
func (l *lockedWriter) Close() error { return nil }

// filterLines copies the lines of in that are JSON-RPC 2.0 messages the SDK
// can decode to pass, one a line, and answers the others on out. It
// returns in's error (nil at its end) or pass's (the session ended).
func filterLines(in io.Reader, pass io.Writer, out io.Writer, log *slog.Logger, limit int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, long, err := readLine(r, limit)
		if long > 0 {
			log.Warn("askls mcp: skipping a line longer than the limit", "bytes", long, "limit", limit)
			answer(out, nil, codeInvalidRequest, fmt.Sprintf("a message of more than %d bytes (the limit is %d): skipped", long, limit))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if id, code, why := checkMessage(line); code != 0 {
				log.Warn("askls mcp: answering a line that is not a JSON-RPC 2.0 message", "err", why, "bytes", len(line))
				answer(out, id, code, why)
			} else if _, werr := pass.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line of at most limit bytes (without its newline).
// A longer line is read to its end and dropped: long is its length.
func readLine(r *bufio.Reader, limit int) (line []byte, long int, err error) {
	for {
		part, err := r.ReadSlice('\n')
		if long > 0 {
			long += len(part)
		} else if len(line)+len(part) > limit+1 { // +1: the newline
			long = len(line) + len(part)
			line = nil
		} else {
			line = append(line, part...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, long, err
	}
}

// checkMessage says why line is not a message the SDK decodes (a JSON-RPC
// error code and a message, with the line's id when it is usable), or
// code 0.
func checkMessage(line []byte) (id json.RawMessage, code int, why string) {
	if depth(line) > maxDepth {
		return nil, codeParseError, fmt.Sprintf("parse error: JSON nested deeper than %d levels", maxDepth)
	}
	if !json.Valid(line) {
		return nil, codeParseError, "parse error: the line is not one JSON value (one JSON-RPC message a line)"
	}
	switch line[0] {
	case '[':
		return nil, codeInvalidRequest, "invalid request: batches are not supported (MCP 2025-06-18 removed them); send one message a line"
	case '{':
	default:
		return nil, codeInvalidRequest, "invalid request: a JSON-RPC message is an object"
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		return nil, codeParseError, "parse error: " + err.Error()
	}
	rawID, hasID := msg["id"]
	if hasID && !validID(rawID) {
		return nil, codeInvalidRequest, fmt.Sprintf("invalid request: id must be a string, a number or null, not %s", cut(rawID, 40))
	}
	if hasID && string(rawID) != "null" {
		id = rawID
	}
	var version string
	if err := json.Unmarshal(msg["jsonrpc"], &version); err != nil || version != "2.0" {
		return id, codeInvalidRequest, fmt.Sprintf(`invalid request: "jsonrpc" must be "2.0", not %s`, cut(msg["jsonrpc"], 20))
	}
	if method, ok := msg["method"]; ok {
		var s string
		if err := json.Unmarshal(method, &s); err != nil {
			return id, codeInvalidRequest, "invalid request: method must be a string"
		}
		return nil, 0, ""
	}
	// A response: it must answer a request by id.
	if id == nil {
		return nil, codeInvalidRequest, "invalid request: a message without a method must be a response with an id"
	}
	if e, ok := msg["error"]; ok && string(e) != "null" {
		var we struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(e, &we); err != nil {
			return id, codeInvalidRequest, "invalid request: error must be an object with a code and a message"
		}
	}
	return nil, 0, ""
}

// validID: a JSON string, a number that fits an int64 as a float, or null.
func validID(raw json.RawMessage) bool {
	switch {
	case string(raw) == "null":
		return true
	case len(raw) > 0 && raw[0] == '"':
		var s string
		return json.Unmarshal(raw, &s) == nil
	default:
		var f float64
		return json.Unmarshal(raw, &f) == nil
	}
}

// depth is how deeply line's arrays and objects nest (strings skipped).
func depth(line []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range line {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}

// answer writes a JSON-RPC error response with id (null when nil).
func answer(out io.Writer, id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id}
	resp.Error.Code, resp.Error.Message = code, message
	data, err := json.Marshal(resp)
	if err != nil {
		return
	}
	out.Write(append(data, '\n'))
}

func cut(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
