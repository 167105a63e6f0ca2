package mcpclient

import (
	"context"
	"fmt"
)

// Next returns the server's next message: the first one that no call of
// Next has returned yet.
func (c *Client) Next(ctx context.Context) (Message, error) {
	c.mu.Lock()
	i := c.next
	c.mu.Unlock()
	m, err := c.at(ctx, fmt.Sprintf("the server's message %d", i+1), i)
	if err == nil {
		c.mu.Lock()
		c.next = max(c.next, i+1)
		c.mu.Unlock()
	}
	return m, err
}

// Wait returns the first message the server wrote, since the connection
// began, for which match is true. what names it in the error.
func (c *Client) Wait(ctx context.Context, what string, match func(Message) bool) (Message, error) {
	ctx, cancel := guard(ctx)
	defer cancel()
	for i := 0; ; i++ {
		m, err := c.at(ctx, what, i)
		if err != nil || match(m) {
			return m, err
		}
	}
}

// at waits for the message at index i.
func (c *Client) at(ctx context.Context, what string, i int) (Message, error) {
	ctx, cancel := guard(ctx)
	defer cancel()
	for {
		c.mu.Lock()
		n, grew, readErr := len(c.msgs), c.grew, c.readErr
		var m Message
		if i < n {
			m = c.msgs[i]
		}
		c.mu.Unlock()
		if i < n {
			return m, nil
		}
		if readErr != nil {
			return Message{}, fmt.Errorf("waiting for %s: the server's output ended after %d messages: %w", what, n, readErr)
		}
		select {
		case <-grew:
		case <-ctx.Done():
			return Message{}, fmt.Errorf("waiting for %s: %w (%d messages from the server)", what, context.Cause(ctx), n)
		}
	}
}

// guard gives ctx the patience when it has no deadline.
func guard(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, Patience, fmt.Errorf("%w after %s", ErrPatience, Patience))
}

// IsReply matches the reply to request id.
func IsReply(id int64) func(Message) bool {
	return func(m Message) bool { return m.Method == "" && m.ID == float64(id) }
}
