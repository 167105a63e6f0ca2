package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askls/askls/internal/lspclient"
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

// serveProcess is askls serve as an editor runs it, on the other end of
// its stdio: the shared test client (internal/lspclient) and the process.
type serveProcess struct {
	t      *testing.T
	client *lspclient.Client
	cmd    *exec.Cmd
	stderr *bytes.Buffer // read once the process has ended
}

// startServe starts cmd (askls serve, or the test binary as askls) as a
// language server and ends it when the test does.
func startServe(t *testing.T, cmd *exec.Cmd) *serveProcess {
	t.Helper()
	c := &serveProcess{t: t, cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = c.stderr
	client, err := lspclient.Exec(cmd, lspclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.client = client
	t.Cleanup(func() {
		if err := client.Close(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("askls stderr (tail):\n%s", tail(c.stderr.String(), 4000))
		}
	})
	return c
}

// startBinary starts the built askls binary with args in dir, with no
// model server to reach.
func startBinary(t *testing.T, dir string, args ...string) *serveProcess {
	t.Helper()
	bin, err := buildAskls()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ASKLS_CACHE_DIR="+t.TempDir(), "OLLAMA_HOST=127.0.0.1:1")
	return startServe(t, cmd)
}

func (c *serveProcess) call(method string, params, result any) {
	c.t.Helper()
	if err := c.client.Call(context.Background(), method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *serveProcess) notify(method string, params any) {
	c.t.Helper()
	if err := c.client.Notify(method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitFor waits for a message of the server's for which match is true.
func (c *serveProcess) waitFor(what string, match func(lspclient.Message) bool) lspclient.Message {
	c.t.Helper()
	m, err := c.client.Wait(context.Background(), what, match)
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// waitIndexed waits for the end of the indexing progress.
func (c *serveProcess) waitIndexed() {
	c.t.Helper()
	c.waitFor("the end of indexing", lspclient.IsMethod("$/progress", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"end"`) && strings.Contains(string(p), "files")
	}))
}

// exit sends shutdown and exit and returns the process's exit code.
func (c *serveProcess) exit() int {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.waitExit()
	return c.cmd.ProcessState.ExitCode()
}

// waitExit waits for the process to end.
func (c *serveProcess) waitExit() {
	c.t.Helper()
	if _, err := c.client.WaitExit(context.Background()); err != nil {
		c.t.Fatal(err)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
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
	c.waitIndexed()

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
	c.waitExit()
	if code := c.cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit without shutdown: exit status %d, want 1", code)
	}
}

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
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		// Patience for a cold index of the whole tree.
		c, err := lspclient.Exec(cmd, lspclient.Options{Patience: 10 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		if err := c.Call(ctx, "initialize", map[string]any{"rootUri": fileURL(src),
			"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}}}, nil); err != nil {
			b.Fatal(err)
		}
		c.Notify("initialized", map[string]any{})
		if _, err := c.Wait(ctx, "the index ready", lspclient.IsMethod("$/progress", func(p json.RawMessage) bool {
			return strings.Contains(string(p), `"end"`)
		})); err != nil {
			b.Fatal(err)
		}
		var st struct {
			Index     struct{ Files, Chunks, Symbols int }
			HeapBytes uint64
		}
		if err := c.Call(ctx, "workspace/executeCommand", map[string]any{"command": "askls.status"}, &st); err != nil {
			b.Fatal(err)
		}
		time.Sleep(3 * time.Second) // idle: what is measured, not a wait for an event
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		b.ReportMetric(procKB(status, "VmRSS:")/1024, "rss-MB")
		b.ReportMetric(procKB(status, "VmHWM:")/1024, "peak-rss-MB")
		b.ReportMetric(float64(st.HeapBytes)/(1<<20), "heap-MB")
		b.ReportMetric(float64(st.Index.Files), "files")
		if err := c.Shutdown(ctx); err != nil {
			b.Errorf("%v\n%s", err, stderr.String())
		}
		c.Close()
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
