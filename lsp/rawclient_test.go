package lsp

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// rawClient drives a server with hand-made JSON-RPC messages: it picks the
// request IDs (so it can cancel one) and reads replies in a loop,
// answering the server's own requests with null and recording the rest.
type rawClient struct {
	t      testing.TB
	stream jsonrpc2.Stream

	mu      sync.Mutex
	replies map[string]*jsonrpc2.Response
	notes   []message
	wake    chan struct{}
	readErr error
}

func newRawClient(t testing.TB, rw io.ReadWriteCloser) *rawClient {
	c := &rawClient{t: t, stream: jsonrpc2.NewStream(rw), replies: map[string]*jsonrpc2.Response{}, wake: make(chan struct{}, 1)}
	go c.read()
	return c
}

func (c *rawClient) read() {
	for {
		msg, _, err := c.stream.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			c.poke()
			return
		}
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			id := m.ID()
			b, _ := json.Marshal(&id)
			c.mu.Lock()
			c.replies[string(b)] = m
			c.mu.Unlock()
		case *jsonrpc2.Call:
			c.mu.Lock()
			c.notes = append(c.notes, message{m.Method(), m.Params()})
			c.mu.Unlock()
			resp, _ := jsonrpc2.NewResponse(m.ID(), nil, nil)
			_, _ = c.stream.Write(context.Background(), resp)
		case *jsonrpc2.Notification:
			c.mu.Lock()
			c.notes = append(c.notes, message{m.Method(), m.Params()})
			c.mu.Unlock()
		}
		c.poke()
	}
}

func (c *rawClient) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *rawClient) send(id int32, method string, params any) {
	c.t.Helper()
	call, err := jsonrpc2.NewCall(jsonrpc2.NewNumberID(id), method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.stream.Write(context.Background(), call); err != nil {
		c.t.Fatalf("send %s: %v", method, err)
	}
}

func (c *rawClient) notify(method string, params any) {
	c.t.Helper()
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.stream.Write(context.Background(), n); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// wait returns the reply to request id.
func (c *rawClient) wait(id int32, timeout time.Duration) *jsonrpc2.Response {
	c.t.Helper()
	key := itoa(int(id))
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		r, ok := c.replies[key]
		rerr := c.readErr
		c.mu.Unlock()
		if ok {
			return r
		}
		if rerr != nil {
			c.t.Fatalf("waiting for reply %d: stream ended: %v", id, rerr)
		}
		select {
		case <-c.wake:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no reply to request %d", id)
		}
	}
}

// result decodes the successful reply to id into v.
func (c *rawClient) result(id int32, v any) {
	c.t.Helper()
	r := c.wait(id, 60*time.Second)
	if r.Err() != nil {
		c.t.Fatalf("request %d: %v", id, r.Err())
	}
	if v != nil {
		if err := json.Unmarshal(r.Result(), v); err != nil {
			c.t.Fatalf("request %d: %v", id, err)
		}
	}
}

func (c *rawClient) waitNote(method string, ok func(json.RawMessage) bool, timeout time.Duration) json.RawMessage {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for _, n := range c.notes {
			if n.method == method && (ok == nil || ok(n.params)) {
				c.mu.Unlock()
				return n.params
			}
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no %s", method)
		}
	}
}
