package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askls/askls/internal/benchkit"
)

// runServe is `askls-bench serve`: the language server as an editor runs
// it (`askls serve`, started by this command as a client over stdio), on
// the persisted index of --root: how long until it says the index is
// ready, its first workspace/symbol (which builds the symbol table), the
// query mix through workspace/symbol, and its resident memory once idle.
func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	bin := fs.String("askls", "askls", "the askls `BINARY` to run (go build -o BINARY ./cmd/askls)")
	root := fs.String("root", ".", "workspace root `DIR`")
	cache := fs.String("cache", "", "index cache `DIR` (default $ASKLS_CACHE_DIR, else the user cache folder)")
	idle := fs.Duration("idle", 30*time.Second, "how long to sample the idle server's memory")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	path, err := exec.LookPath(*bin)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	cmdArgs := []string{"serve", "--no-model", "--root", abs}
	if *cache != "" {
		cmdArgs = append(cmdArgs, "--cache", *cache)
	}
	cmd := exec.CommandContext(ctx, path, cmdArgs...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	ready := make(chan string, 1)
	c := &lspClient{w: stdin, pending: map[int]chan json.RawMessage{}, ready: ready}
	go c.read(stdout)

	u := url.URL{Scheme: "file", Path: abs}
	if _, err := c.call(ctx, "initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": u.String(),
		"workspaceFolders": []map[string]string{{"uri": u.String(), "name": filepath.Base(abs)}},
		"capabilities":     map[string]any{},
	}); err != nil {
		return fmt.Errorf("serve: initialize: %w", err)
	}
	c.notify("initialized", map[string]any{})

	var f serveFigures
	select {
	case line := <-ready:
		f.ReadyS = time.Since(start).Seconds()
		f.ReadyLog = line
	case <-ctx.Done():
		return ctx.Err()
	}
	t := time.Now()
	if _, err := c.call(ctx, "workspace/symbol", map[string]any{"query": "main"}); err != nil {
		return fmt.Errorf("serve: workspace/symbol: %w", err)
	}
	f.FirstSymbolMS = ms1(time.Since(t))
	var ts []float64
	for _, q := range benchkit.QueryMix {
		t := time.Now()
		if _, err := c.call(ctx, "workspace/symbol", map[string]any{"query": q}); err != nil {
			return fmt.Errorf("serve: workspace/symbol %q: %w", q, err)
		}
		ts = append(ts, ms1(time.Since(t)))
	}
	f.SymbolP50, f.SymbolP99 = percentile(ts, 50), percentile(ts, 99)
	f.ReadyRSSMB = pidRSSMB(cmd.Process.Pid)
	deadline := time.Now().Add(*idle)
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		f.IdleRSSMB = pidRSSMB(cmd.Process.Pid)
	}
	f.PeakRSSMB = pidStatusMB(cmd.Process.Pid, "VmHWM:")
	c.call(ctx, "shutdown", nil)
	c.notify("exit", nil)
	if *asJSON {
		return json.NewEncoder(os.Stdout).Encode(f)
	}
	fmt.Printf("index ready after %.2f s (%s)\n", f.ReadyS, f.ReadyLog)
	fmt.Printf("first workspace/symbol %.1f ms; query mix p50 %.2f ms, p99 %.2f ms\n", f.FirstSymbolMS, f.SymbolP50, f.SymbolP99)
	fmt.Printf("RSS: %.0f MB after the queries, %.0f MB idle after %s; peak %.0f MB\n", f.ReadyRSSMB, f.IdleRSSMB, *idle, f.PeakRSSMB)
	return nil
}

// serveFigures are runServe's measurements.
type serveFigures struct {
	ReadyS        float64 `json:"ready_s"`
	ReadyLog      string  `json:"ready_log"`
	FirstSymbolMS float64 `json:"first_symbol_ms"`
	SymbolP50     float64 `json:"symbol_p50_ms"`
	SymbolP99     float64 `json:"symbol_p99_ms"`
	ReadyRSSMB    float64 `json:"rss_after_queries_mb"`
	IdleRSSMB     float64 `json:"idle_rss_mb"`
	PeakRSSMB     float64 `json:"peak_rss_mb"`
}

// lspClient is the few JSON-RPC calls runServe makes; it answers the
// server's own requests with null, and sends on ready the log message
// saying the index is ready (or that indexing failed).
type lspClient struct {
	mu      sync.Mutex
	w       io.Writer
	next    int
	pending map[int]chan json.RawMessage
	ready   chan<- string
	sent    bool
}

type rpcMessage struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params struct {
		Message string `json:"message"`
	} `json:"params"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func (c *lspClient) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (c *lspClient) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

func (c *lspClient) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	select {
	case res, ok := <-ch:
		if !ok {
			return nil, errors.New("the server answered with an error")
		}
		return res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// read dispatches the server's messages until its output ends.
func (c *lspClient) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		n := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return
		}
		var m rpcMessage
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		if m.ID == nil {
			msg := m.Params.Message
			if m.Method == "window/logMessage" && !c.sent &&
				(strings.Contains(msg, `msg="index ready"`) || strings.Contains(msg, `msg="indexing failed"`)) {
				c.ready <- msg
				c.sent = true
			}
			continue
		}
		if m.Method != "" {
			c.send(map[string]any{"id": m.ID, "result": nil}) // a request of the server's
			continue
		}
		id, err := strconv.Atoi(string(*m.ID))
		if err != nil {
			continue
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch == nil {
			continue
		}
		if m.Error != nil {
			close(ch)
			continue
		}
		ch <- m.Result
	}
}
