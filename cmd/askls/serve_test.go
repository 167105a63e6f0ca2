package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// buildAskls builds the askls binary once per test binary run.
var buildAskls = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "askls-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "askls")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out)}
	}
	return bin, nil
})

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build: " + e.out }

// stdioClient is an LSP client talking to the askls binary over its stdin
// and stdout.
type stdioClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	stderr *bytes.Buffer

	mu    sync.Mutex
	notes []string // method + " " + params
}

type pipeRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipeRWC) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

func startBinary(t *testing.T, dir string, args ...string) *stdioClient {
	t.Helper()
	bin, err := buildAskls()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ASKLS_CACHE_DIR="+t.TempDir(), "OLLAMA_HOST=127.0.0.1:1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	c := &stdioClient{t: t, cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{stdout, stdin}))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		c.mu.Lock()
		c.notes = append(c.notes, req.Method()+" "+string(req.Params()))
		c.mu.Unlock()
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() {
		c.conn.Close()
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("askls stderr:\n%s", c.stderr.String())
		}
	})
	return c
}

func (c *stdioClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *stdioClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *stdioClient) waitNote(substr string) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, n := range c.notes {
			if strings.Contains(n, substr) {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no notification containing %q", substr)
}

// exit sends shutdown and exit and returns the process's exit code.
func (c *stdioClient) exit() int {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		c.t.Fatal("askls did not exit")
	}
	return c.cmd.ProcessState.ExitCode()
}

func fileURL(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

func TestServeOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	src := "package kv\n\n// Store keeps values. 😀\ntype Store struct{ m map[string]string }\n\n// Get returns the value for key.\nfunc (s *Store) Get(key string) string { return s.m[key] }\n"
	os.WriteFile(filepath.Join(dir, "kv.go"), []byte(src), 0o644)
	uri := fileURL(filepath.Join(dir, "kv.go"))

	c := startBinary(t, dir, "serve", "--stdio")
	var init protocol.InitializeResult
	c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": fileURL(dir),
		"capabilities": map[string]any{
			"window":       map[string]any{"workDoneProgress": true},
			"textDocument": map[string]any{"codeLens": map[string]any{}},
		},
	}, &init)
	if init.ServerInfo == nil || init.ServerInfo.Name != "askls" {
		t.Errorf("serverInfo %+v", init.ServerInfo)
	}
	c.notify("initialized", map[string]any{})
	c.waitNote(`"kind":"end"`)

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": src}})
	// After "😀" (two UTF-16 units) on line 2: insert a word only the buffer has.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 2, "character": 25}, "end": map[string]any{"line": 2, "character": 25}},
			"text":  " Plumbob🎉 inside.",
		}},
	})
	var res struct {
		ID        string
		Mode      string
		Answer    string
		Citations []struct {
			N        int
			Location protocol.Location
		}
	}
	c.call("askls/ask", map[string]any{"question": "Plumbob"}, &res)
	if res.Mode != "retrieval" || len(res.Citations) == 0 {
		t.Fatalf("ask: mode %q, %d citations; answer %q", res.Mode, len(res.Citations), res.Answer)
	}
	if !strings.Contains(res.Answer, "Plumbob🎉 inside.") {
		t.Errorf("the answer does not quote the edited buffer: %q", res.Answer)
	}
	loc := res.Citations[0].Location
	if string(loc.URI) != uri || loc.Range.Start.Line > 2 || loc.Range.End.Line < 2 {
		t.Errorf("citation %+v does not cover line 2 of %s", loc, uri)
	}
	var lenses []protocol.CodeLens
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
	if len(lenses) == 0 || !strings.HasSuffix(lenses[0].Command.Title, "Plumbob — askls") {
		t.Errorf("lenses: %+v", lenses)
	}
	var syms []protocol.SymbolInformation
	c.call("workspace/symbol", map[string]any{"query": "Store"}, &syms)
	if len(syms) == 0 || syms[0].Name != "Store" {
		t.Errorf("workspace/symbol: %+v", syms)
	}
	if code := c.exit(); code != 0 {
		t.Errorf("exit code %d after shutdown+exit", code)
	}
	if !strings.Contains(c.stderr.String(), "askls serve") {
		t.Errorf("no log on stderr: %q", c.stderr.String())
	}
}

func TestBareAsklsServesAndExitWithoutShutdownFails(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	c := startBinary(t, dir) // no arguments: the language server
	var init protocol.InitializeResult
	c.call("initialize", map[string]any{"rootUri": fileURL(dir), "capabilities": map[string]any{}}, &init)
	c.notify("exit", nil)
	err := c.cmd.Wait()
	if c.cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("exit without shutdown: %v, want exit status 1", err)
	}
}

var _ = json.Marshal

// BenchmarkServeIdleMemory starts the askls binary on the Go standard
// library, waits until the index is ready, lets it idle, and reports its
// resident memory (VmRSS, and the peak VmHWM) from /proc. The index cache
// is $ASKLS_BENCH_CACHE (default: a folder in the temp dir), warm after
// the first run.
//
//	go test -run '^$' -bench ServeIdleMemory -benchtime 1x ./cmd/askls/
func BenchmarkServeIdleMemory(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	cache := os.Getenv("ASKLS_BENCH_CACHE")
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "askls-bench-cache")
	}
	bin, err := buildAskls()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(bin, "serve", "--no-model", "--cache", cache)
		cmd.Dir = src
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		ready := make(chan struct{})
		var once sync.Once
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{stdout, stdin}))
		conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
			if req.Method() == "$/progress" && strings.Contains(string(req.Params()), `"end"`) {
				once.Do(func() { close(ready) })
			}
			return reply(ctx, nil, nil)
		})
		ctx := context.Background()
		if _, err := conn.Call(ctx, "initialize", map[string]any{"rootUri": fileURL(src),
			"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}}}, nil); err != nil {
			b.Fatal(err)
		}
		conn.Notify(ctx, "initialized", map[string]any{})
		select {
		case <-ready:
		case <-time.After(10 * time.Minute):
			b.Fatal("index never ready")
		}
		var st struct {
			Index     struct{ Files, Chunks, Symbols int }
			HeapBytes uint64
		}
		if _, err := conn.Call(ctx, "workspace/executeCommand", map[string]any{"command": "askls.status"}, &st); err != nil {
			b.Fatal(err)
		}
		time.Sleep(3 * time.Second) // idle
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		b.ReportMetric(procKB(status, "VmRSS:")/1024, "rss-MB")
		b.ReportMetric(procKB(status, "VmHWM:")/1024, "peak-rss-MB")
		b.ReportMetric(float64(st.HeapBytes)/(1<<20), "heap-MB")
		b.ReportMetric(float64(st.Index.Files), "files")
		conn.Call(ctx, "shutdown", nil, nil)
		conn.Notify(ctx, "exit", nil)
		cmd.Wait()
	}
}

func procKB(status []byte, key string) float64 {
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, key) {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, key), "kB")), &kb)
			return kb
		}
	}
	return 0
}
