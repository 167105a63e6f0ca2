package lspclient

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// Call sends a request, waits for its reply and decodes its result into
// result (unless result is nil). A reply with an error returns that error,
// a *jsonrpc2.Error.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	id, err := c.Request(method, params)
	if err != nil {
		return err
	}
	return c.Result(ctx, id, method, result)
}

// Request sends a request and returns its id without waiting for the
// reply: Reply or Result waits for it, $/cancelRequest can name it.
func (c *Client) Request(method string, params any) (int32, error) {
	id := c.lastID.Add(1)
	call, err := jsonrpc2.NewCall(idOf(id), method, params)
	if err != nil {
		return 0, fmt.Errorf("lspclient: %s: %w", method, err)
	}
	if err := c.write(call); err != nil {
		return 0, fmt.Errorf("lspclient: sending %s: %w", method, err)
	}
	return id, nil
}

// Reply waits for the reply to request id.
func (c *Client) Reply(ctx context.Context, id int32) (Message, error) {
	return c.Wait(ctx, fmt.Sprintf("the reply to request %d", id), IsReply(id))
}

// Result waits for the reply to request id (method names it in errors)
// and decodes its result into result (unless result is nil) with
// encoding/json, as a client written in Go would. A reply with an error returns
// that error, a *jsonrpc2.Error.
func (c *Client) Result(ctx context.Context, id int32, method string, result any) error {
	m, err := c.Wait(ctx, fmt.Sprintf("the reply to %s (request %d)", method, id), IsReply(id))
	if err != nil {
		return err
	}
	if m.Err != nil {
		return m.Err
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("lspclient: the result of %s: %w", method, err)
		}
	}
	return nil
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		return fmt.Errorf("lspclient: %s: %w", method, err)
	}
	if err := c.write(n); err != nil {
		return fmt.Errorf("lspclient: sending %s: %w", method, err)
	}
	return nil
}

// WriteRaw writes b to the server as it is, between whole messages: for
// the tests of what the server does with broken framing.
func (c *Client) WriteRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.raw.Write(b); err != nil {
		return fmt.Errorf("lspclient: writing raw bytes: %w", err)
	}
	return nil
}

func idOf(n int32) jsonrpc2.ID { return jsonrpc2.NewNumberID(n) }
