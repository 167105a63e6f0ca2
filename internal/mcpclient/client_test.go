package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// lineServer answers each request line with its params as the result, a
// line that is not JSON with a parse error of id null, and "bye" (a
// notification) with "bye" and the end.
func lineServer(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var m Message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			fmt.Fprintln(out, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
			continue
		}
		if m.Method == "bye" {
			fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"bye"}`)
			return errBye
		}
		id, _ := json.Marshal(m.ID)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, m.Params)
	}
	return sc.Err()
}

var errBye = errors.New("bye")

func TestSendNextWait(t *testing.T) {
	c := Pipe(lineServer)
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	if err := c.Send(`{not json}`); err != nil {
		t.Fatal(err)
	}
	m, err := c.Next(ctx)
	if err != nil || m.Error == nil || m.Error.Code != -32700 || m.ID != nil || m.JSONRPC != "2.0" {
		t.Fatalf("reply to a bad line: %+v %v", m, err)
	}
	id, err := c.Request("echo", map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err = c.Next(ctx)
	if err != nil || m.ID != float64(id) || string(m.Result) != `{"n":1}` {
		t.Fatalf("reply %d: %+v %v", id, m, err)
	}
	if m, err := c.Wait(ctx, "the reply", IsReply(id)); err != nil || !strings.Contains(m.Line, `"n":1`) {
		t.Errorf("Wait: %+v %v", m, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Next(cancelled); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "2 messages") {
		t.Errorf("Next with nothing to come: %v", err)
	}
	c.Notify("bye", nil)
	if m, err := c.Next(ctx); err != nil || m.Method != "bye" {
		t.Errorf("the last message: %+v %v", m, err)
	}
	if exitErr, err := c.WaitExit(ctx); err != nil || !errors.Is(exitErr, errBye) {
		t.Errorf("WaitExit = %v, %v", exitErr, err)
	}
	if _, err := c.Next(ctx); err == nil || !strings.Contains(err.Error(), "output ended after 3 messages") {
		t.Errorf("Next after the end: %v", err)
	}
}

// TestExec runs this test binary as the line server on its stdio.
func TestExec(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$")
	cmd.Env = append(os.Environ(), "MCPCLIENT_HELPER=1")
	c, err := Exec(cmd)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := c.Request("echo", "over stdio")
	if m, err := c.Wait(t.Context(), "the echo", IsReply(id)); err != nil || string(m.Result) != `"over stdio"` {
		t.Fatalf("echo: %+v %v", m, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
}

func TestHelperServer(t *testing.T) {
	if os.Getenv("MCPCLIENT_HELPER") != "1" {
		t.Skip("run by TestExec")
	}
	lineServer(os.Stdin, os.Stdout)
	os.Exit(3)
}
