package lspclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// Kind says what a captured message is.
type Kind int

const (
	// Notification is a notification from the server.
	Notification Kind = iota + 1
	// Request is a request of the server's own, already answered.
	Request
	// Reply is the reply to one of the client's requests.
	Reply
)

// Message is one message the server sent.
type Message struct {
	Kind   Kind
	Method string          // a notification's or request's
	ID     jsonrpc2.ID     // a request's or reply's
	Params json.RawMessage // a notification's or request's
	Result json.RawMessage // a reply's, when it has no error
	Err    error           // a reply's error: a *jsonrpc2.Error
}

// Options configure a Client.
type Options struct {
	// Answer answers the server's own requests (workspace/configuration,
	// window/showDocument, …); nil answers every one with null.
	Answer func(method string, params json.RawMessage) (result any, err error)
	// Patience bounds every wait whose context has no deadline of its own
	// (default DefaultPatience). It only keeps a hung server from hanging
	// a test: no test should come near it.
	Patience time.Duration
}

// DefaultPatience is a wait's bound when Options.Patience is zero. It is
// long because under -race on a loaded machine a request queued behind
// thousands of edits takes tens of seconds.
const DefaultPatience = 3 * time.Minute

// Client is one connection to a language server.
type Client struct {
	opts   Options
	stream jsonrpc2.Stream
	raw    io.Writer
	wmu    sync.Mutex // one writer at a time: a frame is two writes
	lastID atomic.Int32

	mu      sync.Mutex
	msgs    []Message     // everything the server sent, in order
	grew    chan struct{} // closed (and replaced) when msgs grows or reading ends
	readErr error         // why reading ended; nil while it goes on

	exited  chan struct{} // closed when the server has ended
	exitErr error         // Serve's error, or the process's; set before exited closes

	closeInput func() error // closes what the server reads
	closeAll   func() error // closes both directions
	kill       func()       // ends a server that does not end by itself; nil in process
	closeOnce  sync.Once
	closeErr   error
}

// newClient starts reading the server's messages from conn.
func newClient(conn io.ReadWriteCloser, opts Options) *Client {
	if opts.Patience <= 0 {
		opts.Patience = DefaultPatience
	}
	c := &Client{
		opts:   opts,
		stream: jsonrpc2.NewStream(conn),
		raw:    conn,
		grew:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	go c.read()
	return c
}

// read captures the server's messages until its output ends, answering
// its requests.
func (c *Client) read() {
	for {
		msg, _, err := c.stream.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.wake()
			c.mu.Unlock()
			return
		}
		switch m := msg.(type) {
		case *jsonrpc2.Notification:
			c.add(Message{Kind: Notification, Method: m.Method(), Params: m.Params()})
		case *jsonrpc2.Call:
			c.add(Message{Kind: Request, Method: m.Method(), ID: m.ID(), Params: m.Params()})
			c.answer(m)
		case *jsonrpc2.Response:
			c.add(Message{Kind: Reply, ID: m.ID(), Result: m.Result(), Err: m.Err()})
		}
	}
}

func (c *Client) add(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
	c.wake()
}

// wake tells every waiter that something changed. c.mu is held.
func (c *Client) wake() {
	close(c.grew)
	c.grew = make(chan struct{})
}

// answer replies to a request of the server's.
func (c *Client) answer(call *jsonrpc2.Call) {
	var result any
	var err error
	if c.opts.Answer != nil {
		result, err = c.opts.Answer(call.Method(), call.Params())
	}
	resp, merr := jsonrpc2.NewResponse(call.ID(), result, err)
	if merr != nil {
		resp, _ = jsonrpc2.NewResponse(call.ID(), nil, fmt.Errorf("lspclient: encoding the answer to %s: %w", call.Method(), merr))
	}
	_ = c.write(resp) // a server that went away has no use for it
}

// Messages returns every message the server has sent so far, in order.
func (c *Client) Messages() []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Message(nil), c.msgs...)
}

// write sends one message.
func (c *Client) write(m jsonrpc2.Message) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.stream.Write(context.Background(), m)
	return err
}
