package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrPatience is the cause of a wait that ran out of the client's
// patience: the server hung, or never sent what was awaited.
var ErrPatience = errors.New("lspclient: out of patience (the server hung, or never sent it)")

// Wait returns the first message the server sent, since the connection
// began, for which match is true. what names the event in the error.
func (c *Client) Wait(ctx context.Context, what string, match func(Message) bool) (Message, error) {
	var found Message
	next := 0
	err := c.Await(ctx, what, func(msgs []Message) bool {
		for ; next < len(msgs); next++ {
			if match(msgs[next]) {
				found = msgs[next]
				return true
			}
		}
		return false
	})
	return found, err
}

// Await waits until cond is true of the messages the server has sent so
// far, in order. cond is called again each time a message arrives, never
// concurrently, and must not keep the slice.
func (c *Client) Await(ctx context.Context, what string, cond func([]Message) bool) error {
	ctx, cancel := c.guard(ctx)
	defer cancel()
	for {
		c.mu.Lock()
		msgs, grew, readErr := c.msgs[:len(c.msgs):len(c.msgs)], c.grew, c.readErr
		c.mu.Unlock()
		if cond(msgs) {
			return nil
		}
		if readErr != nil {
			return fmt.Errorf("waiting for %s: the server's output ended (%w); %s", what, readErr, summary(msgs))
		}
		select {
		case <-grew:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w; %s", what, context.Cause(ctx), summary(msgs))
		}
	}
}

// guard gives ctx the client's patience when it has no deadline.
func (c *Client) guard(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, c.opts.Patience, fmt.Errorf("%w after %s", ErrPatience, c.opts.Patience))
}

// summary says how many messages came and what the last few were.
func summary(msgs []Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages from the server", len(msgs))
	start := max(0, len(msgs)-3)
	for _, m := range msgs[start:] {
		b.WriteString("; ")
		b.WriteString(m.String())
	}
	return b.String()
}

// String is the message in short, for errors and logs.
func (m Message) String() string {
	var s string
	switch m.Kind {
	case Reply:
		s = fmt.Sprintf("reply %v: %s", m.ID, m.Result)
		if m.Err != nil {
			s = fmt.Sprintf("reply %v: error %v", m.ID, m.Err)
		}
	case Request:
		s = fmt.Sprintf("request %v %s %s", m.ID, m.Method, m.Params)
	default:
		s = m.Method + " " + string(m.Params)
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// IsReply matches the reply to request id.
func IsReply(id int32) func(Message) bool {
	return func(m Message) bool { return m.Kind == Reply && m.ID == idOf(id) }
}

// IsMethod matches a notification or request of the server's with this
// method whose params satisfy ok (nil: any).
func IsMethod(method string, ok func(params json.RawMessage) bool) func(Message) bool {
	return func(m Message) bool {
		return m.Kind != Reply && m.Method == method && (ok == nil || ok(m.Params))
	}
}
