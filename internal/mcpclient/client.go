package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"github.com/askls/askls/internal/child"
)

// Message is one message the server wrote.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"` // nil (absent or null), a float64 or a string
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
	Line    string          `json:"-"` // the line as written
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// Patience bounds every wait whose context has no deadline of its own. It
// only keeps a hung server from hanging a test.
const Patience = 3 * time.Minute

// ErrPatience is the cause of a wait that ran out of Patience.
var ErrPatience = errors.New("mcpclient: out of patience (the server hung, or never wrote it)")

// Client is one connection to an MCP server.
type Client struct {
	wmu    sync.Mutex
	w      io.WriteCloser
	lastID int64 // under wmu

	mu      sync.Mutex
	msgs    []Message
	next    int           // Next's place in msgs
	grew    chan struct{} // closed (and replaced) when msgs grows or reading ends
	readErr error

	exited    chan struct{}
	exitErr   error
	kill      func() // ends a child process that does not end; nil in process
	closeOnce sync.Once
	closeErr  error
}

func newClient(r io.ReadCloser, w io.WriteCloser) *Client {
	c := &Client{w: w, grew: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		c.read(bufio.NewReader(r))
		r.Close()
	}()
	return c
}

// Pipe runs serve with the ends of two in-memory pipes, in a goroutine of
// its own, and returns a client on the other ends. serve must return once
// its input ends; its error is what WaitExit reports.
func Pipe(serve func(in io.Reader, out io.Writer) error) *Client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := newClient(outR, inW)
	go func() {
		err := serve(inR, outW)
		outW.Close() // the client's reading ends here
		inR.Close()
		c.exitErr = err
		close(c.exited)
	}()
	return c
}

// Exec starts cmd with its standard input and output connected to a
// client (its Dir, Env and Stderr are the caller's). cmd.Wait's error is
// what WaitExit reports.
func Exec(cmd *exec.Cmd) (*Client, error) {
	outR, inW, err := child.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: %w", err)
	}
	c := newClient(outR, inW)
	c.kill = func() { _ = cmd.Process.Kill() }
	go func() {
		c.exitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// read captures the server's lines until its output ends.
func (c *Client) read(r *bufio.Reader) {
	for {
		line, err := r.ReadString('\n')
		if len(line) > 0 && line != "\n" {
			var m Message
			if jerr := json.Unmarshal([]byte(line), &m); jerr != nil {
				err = fmt.Errorf("the server wrote %.200q, not a JSON-RPC message: %w", line, jerr)
			} else {
				m.Line = line
				c.mu.Lock()
				c.msgs = append(c.msgs, m)
				c.wake()
				c.mu.Unlock()
			}
		}
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.wake()
			c.mu.Unlock()
			return
		}
	}
}

// wake tells every waiter that something changed. c.mu is held.
func (c *Client) wake() {
	close(c.grew)
	c.grew = make(chan struct{})
}

// Send writes line and a newline, as it is.
func (c *Client) Send(line string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		return fmt.Errorf("mcpclient: sending %.60q: %w", line, err)
	}
	return nil
}

// Request sends a request with the next free number as its id and
// returns the id; Wait(ctx, …, IsReply(id)) waits for its reply.
func (c *Client) Request(method string, params any) (int64, error) {
	c.wmu.Lock()
	c.lastID++
	id := c.lastID
	c.wmu.Unlock()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return 0, fmt.Errorf("mcpclient: %s: %w", method, err)
	}
	return id, c.Send(string(b))
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("mcpclient: %s: %w", method, err)
	}
	return c.Send(string(b))
}

// Messages returns every message the server has written so far.
func (c *Client) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.msgs...)
}

// closeGrace is how long Close waits for the server to end.
const closeGrace = 30 * time.Second

// Close closes the server's input and waits for the server to end
// (closeGrace at most: then a child process is killed). It returns an
// error when the server did not end by itself. It may be called more than
// once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.w.Close()
		ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
		defer cancel()
		if _, err := c.WaitExit(ctx); err != nil {
			c.closeErr = fmt.Errorf("the server did not end after its input closed: %w", err)
			if c.kill != nil {
				c.kill()
				<-c.exited
			}
		}
	})
	return c.closeErr
}

// WaitExit waits until the server has ended and returns its exit error;
// err is set when ctx or the patience ended first.
func (c *Client) WaitExit(ctx context.Context) (exitErr, err error) {
	ctx, cancel := guard(ctx)
	defer cancel()
	select {
	case <-c.exited:
		return c.exitErr, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the server to end: %w", context.Cause(ctx))
	}
}
