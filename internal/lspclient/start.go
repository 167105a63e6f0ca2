package lspclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"time"

	"github.com/askls/askls/internal/child"
)

// Pipe runs serve on one end of an in-memory pipe (net.Pipe), in a
// goroutine of its own, and returns a client on the other end. The server
// has ended when serve returns; its error is what WaitExit reports.
func Pipe(serve func(conn io.ReadWriteCloser) error, opts Options) *Client {
	serverEnd, clientEnd := net.Pipe()
	c := newClient(clientEnd, opts)
	c.closeInput = clientEnd.Close
	c.closeAll = clientEnd.Close
	go func() {
		err := serve(serverEnd)
		serverEnd.Close() // the client's reading ends here
		c.exitErr = err
		close(c.exited)
	}()
	return c
}

// Exec starts cmd with its standard input and output connected to a
// client (its Dir, Env and Stderr are the caller's) and returns the
// client. The server has ended when the process has exited; cmd.Wait's
// error is what WaitExit reports, and cmd.ProcessState is then set.
func Exec(cmd *exec.Cmd, opts Options) (*Client, error) {
	outR, inW, err := child.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("lspclient: %w", err)
	}
	c := newClient(stdio{outR, inW}, opts)
	c.closeInput = inW.Close
	c.closeAll = func() error { return errors.Join(inW.Close(), outR.Close()) }
	c.kill = func() { _ = cmd.Process.Kill() }
	go func() {
		c.exitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// stdio is a child process's standard output and input as one connection.
type stdio struct {
	io.ReadCloser
	io.WriteCloser
}

func (s stdio) Close() error { return errors.Join(s.WriteCloser.Close(), s.ReadCloser.Close()) }

// WaitExit waits until the server has ended and returns its exit error
// (exitErr: Serve's error, or the process's). err is set when ctx or the
// client's patience ended first.
func (c *Client) WaitExit(ctx context.Context) (exitErr, err error) {
	ctx, cancel := c.guard(ctx)
	defer cancel()
	select {
	case <-c.exited:
		return c.exitErr, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the server to end: %w", context.Cause(ctx))
	}
}

// Shutdown sends shutdown and exit, as an editor does when it closes, and
// returns the server's exit error (nil: it exited cleanly).
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := c.Notify("exit", nil); err != nil {
		return err
	}
	exitErr, err := c.WaitExit(ctx)
	if err != nil {
		return err
	}
	if exitErr != nil {
		return fmt.Errorf("the server's exit after shutdown and exit: %w", exitErr)
	}
	return nil
}

// closeGrace is how long Close waits for a server to end after its input
// closed (or the client's patience, when shorter).
const closeGrace = 30 * time.Second

// Close closes the server's input and waits for the server to end
// (closeGrace at most: then a child process is killed), and closes the
// connection. It returns an error when the server did not end by itself.
// It may be called more than once; an ended server is fine.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.closeInput()
		ctx, cancel := context.WithTimeout(context.Background(), min(c.opts.Patience, closeGrace))
		defer cancel()
		_, err := c.WaitExit(ctx)
		if err != nil {
			c.closeErr = fmt.Errorf("the server did not end after its input closed: %w", err)
			if c.kill != nil {
				c.kill()
				<-c.exited
			}
		}
		c.closeAll()
	})
	return c.closeErr
}
