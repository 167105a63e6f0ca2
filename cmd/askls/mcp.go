package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/mcp"
)

// runMCP is `askls mcp`: the Model Context Protocol on stdio (or streamable
// HTTP on a loopback address with --http), for agents and editors that
// speak MCP. Logs go to stderr; stdout is the protocol.
func runMCP(ctx context.Context, args []string) error {
	fs := newFlagSet("mcp", "usage: askls mcp [flags]\n\nServes the Model Context Protocol on stdio: the tools search_code, grep, read_file,\nlist_files, find_symbol, find_references, outline and ask, and file:// resources, over the index of\n--root (default: the client's roots, else the current folder).", os.Stderr)
	var rf rootFlags
	rf.Register(fs)
	var af agentFlags
	af.register(fs)
	fs.BoolVar(&af.noModel, "no-model", false, "ask answers in retrieval mode only: never contact the model server")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this loopback `ADDR` (e.g. 127.0.0.1:8765) instead of stdio")
	noWatch := fs.Bool("no-watch", false, "do not watch files (the index is synced once at start)")
	logLevel := fs.String("log-level", "warn", "stderr log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("askls mcp: unexpected arguments %q", fs.Args()))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return usageError(fmt.Sprintf("askls mcp: --log-level: %v", err))
	}
	logger := slog.New(index.RedactHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	if *httpAddr != "" {
		if err := loopbackOnly(*httpAddr); err != nil {
			return usageError("askls mcp: --http: " + err.Error())
		}
	}
	srv := mcp.New(mcp.Options{
		Roots: rf.Roots, CacheDir: cacheDir(rf.Cache), ConfigDir: configDir(), MaxFileBytes: rf.MaxFileBytes,
		Watch: !*noWatch, Agent: af.config(logger), Logger: logger, Version: version,
	})
	defer srv.Close()
	if *httpAddr == "" {
		if err := srv.Run(ctx, &mcp.LineTransport{Log: logger}); err != nil && ctx.Err() == nil {
			return fmt.Errorf("askls mcp: %w", err)
		}
		return nil
	}
	hs := &http.Server{Addr: *httpAddr, Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	logger.Warn("askls mcp: streamable HTTP", "url", "http://"+*httpAddr)
	if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("askls mcp: %w", err)
	}
	return nil
}

// loopbackOnly accepts host:port addresses on a loopback interface: the
// MCP server has no authentication.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s is not a loopback address (askls mcp has no authentication: use 127.0.0.1)", addr)
}
