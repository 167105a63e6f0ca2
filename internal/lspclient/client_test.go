package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// fakeServer is a tiny JSON-RPC server on conn: "echo" replies with its
// params; "noteFirst" sends a notification, then replies; "askBack" asks
// the client "client/answer" and replies with what it answered; "fail"
// replies with an error; "shutdown" replies null; "exit" sends "bye" and
// ends with exitError.
func fakeServer(conn io.ReadWriteCloser) error {
	c := jsonrpc2.NewConn(jsonrpc2.NewStream(conn))
	ended := make(chan struct{})
	c.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case "echo":
			return reply(ctx, req.Params(), nil)
		case "noteFirst":
			if err := c.Notify(ctx, "note", req.Params()); err != nil {
				return err
			}
			return reply(ctx, "after the note", nil)
		case "askBack":
			go func() { // not on the read loop: the answer is read there
				var got any
				_, err := c.Call(ctx, "client/answer", req.Params(), &got)
				reply(ctx, got, err)
			}()
			return nil
		case "fail":
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad params"))
		case "shutdown":
			return reply(ctx, nil, nil)
		case "exit":
			c.Notify(ctx, "bye", nil)
			close(ended)
			return nil
		}
		return reply(ctx, nil, jsonrpc2.ErrMethodNotFound)
	})
	select {
	case <-ended:
		return errExit
	case <-c.Done():
		return c.Err()
	}
}

var errExit = errors.New("exit")

func TestCallNotifyAndCapture(t *testing.T) {
	c := Pipe(fakeServer, Options{Answer: func(method string, params json.RawMessage) (any, error) {
		return "answered " + method + " " + string(params), nil
	}})
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()

	var echo map[string]int
	if err := c.Call(ctx, "echo", map[string]int{"a": 1}, &echo); err != nil || echo["a"] != 1 {
		t.Fatalf("echo: %v %v", echo, err)
	}
	var s string
	if err := c.Call(ctx, "noteFirst", []int{7}, &s); err != nil || s != "after the note" {
		t.Fatalf("noteFirst: %q %v", s, err)
	}
	// The note was captured before the reply that followed it.
	note, err := c.Wait(ctx, "the note", IsMethod("note", nil))
	if err != nil || string(note.Params) != "[7]" || note.Kind != Notification {
		t.Fatalf("note: %v %v", note, err)
	}
	msgs := c.Messages()
	if len(msgs) != 3 || msgs[1].Kind != Notification || msgs[2].Kind != Reply {
		t.Errorf("messages in order: %v", msgs)
	}

	// The server's own request is answered by Options.Answer and captured.
	if err := c.Call(ctx, "askBack", "q", &s); err != nil || s != `answered client/answer "q"` {
		t.Fatalf("askBack: %q %v", s, err)
	}
	if _, err := c.Wait(ctx, "the server's request", func(m Message) bool { return m.Kind == Request && m.Method == "client/answer" }); err != nil {
		t.Error(err)
	}

	// A reply's error is the *jsonrpc2.Error, code and all.
	err = c.Call(ctx, "fail", nil, nil)
	if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.InvalidParams {
		t.Errorf("fail: %#v", err)
	}

	// A request sent now is awaited later by its id.
	id, err := c.Request("echo", "later")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := c.Reply(ctx, id); err != nil || string(m.Result) != `"later"` {
		t.Errorf("reply %d: %v %v", id, m, err)
	}

	if err := c.Shutdown(ctx); err == nil || !errors.Is(err, errExit) {
		t.Errorf("Shutdown = %v, want the server's exit error", err)
	}
	if _, err := c.Wait(ctx, "bye", IsMethod("bye", nil)); err != nil {
		t.Errorf("the last message before the server ended: %v", err)
	}
}

// TestWaitEnds: a wait ends with an error that says what was awaited and
// what came, when its context ends, when the client's patience ends, and
// when the server's output ends.
func TestWaitEnds(t *testing.T) {
	c := Pipe(fakeServer, Options{Patience: 1})
	t.Cleanup(func() { c.Close() })
	if _, err := c.Request("noteFirst", 1); err != nil {
		t.Fatal(err)
	}
	// The reply is awaited with a context of its own: the patience of 1 ns
	// does not apply.
	ctx, cancel := context.WithTimeout(context.Background(), DefaultPatience)
	defer cancel()
	if _, err := c.Reply(ctx, 1); err != nil {
		t.Fatal(err)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Wait(cancelled, "a cat", IsMethod("cat", nil))
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "waiting for a cat") || !strings.Contains(err.Error(), "2 messages from the server; note 1;") {
		t.Errorf("cancelled wait: %v", err)
	}
	_, err = c.Wait(context.Background(), "a dog", IsMethod("dog", nil))
	if !errors.Is(err, ErrPatience) {
		t.Errorf("a wait past the patience: %v", err)
	}

	c.Notify("exit", nil)
	if exitErr, err := c.WaitExit(ctx); err != nil || !errors.Is(exitErr, errExit) {
		t.Fatalf("WaitExit = %v, %v", exitErr, err)
	}
	_, err = c.Wait(ctx, "a bird", IsMethod("bird", nil))
	if err == nil || !strings.Contains(err.Error(), "the server's output ended") {
		t.Errorf("a wait after the server ended: %v", err)
	}
}

// TestExec drives this test binary, re-run as the fake server on its
// stdio: shutdown, exit, the exit code, and the last message read after
// the process ended.
func TestExec(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(os.Environ(), "LSPCLIENT_HELPER=1")
	c, err := Exec(cmd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var echo string
	if err := c.Call(t.Context(), "echo", "over stdio", &echo); err != nil || echo != "over stdio" {
		t.Fatalf("echo: %q %v", echo, err)
	}
	err = c.Shutdown(t.Context())
	if code := cmd.ProcessState.ExitCode(); code != 3 || err == nil {
		t.Errorf("exit code %d, Shutdown = %v; want 3 and an error", code, err)
	}
	if _, err := c.Wait(t.Context(), "bye", IsMethod("bye", nil)); err != nil {
		t.Error(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after the exit: %v", err)
	}
}

// TestHelperServer is the fake server on stdio when run by TestExec.
func TestHelperServer(t *testing.T) {
	if os.Getenv("LSPCLIENT_HELPER") != "1" {
		t.Skip("run by TestExec")
	}
	err := fakeServer(stdio{os.Stdin, os.Stdout})
	fmt.Fprintln(os.Stderr, "fake server:", err)
	os.Exit(3)
}
