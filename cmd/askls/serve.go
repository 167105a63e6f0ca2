package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"golang.org/x/term"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/memtune"
	"github.com/askls/askls/lsp"
)

// runServe is `askls` / `askls serve [--stdio]`: the language server on
// stdin/stdout. Logs go to stderr only; stdout carries the protocol.
func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport; accepted for clients that pass it)")
	var rf rootFlags // --root: used only when the client names no folder
	rf.Register(fs)
	logLevel := fs.String("log-level", "info", "stderr log level: debug, info, warn, error")
	model := fs.String("model", "", "Ollama model (the client's \"model\" setting overrides it)")
	host := fs.String("ollama-host", "", "Ollama server (the client's \"ollamaHost\" setting overrides it)")
	noModel := fs.Bool("no-model", false, "answer in retrieval mode only, never contacting Ollama")
	provider := fs.String("provider", providerEnv(), "model server API, ollama or openai (the client's \"provider\" setting overrides it)")
	baseURL := fs.String("base-url", "", "OpenAI-compatible server URL (the client's \"baseUrl\" setting overrides it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(fmt.Sprintf("askls serve: unexpected arguments %q", fs.Args()))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return usageError(fmt.Sprintf("askls serve: --log-level: %v", err))
	}
	logger := slog.New(index.RedactHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))

	roots := rf.RootsOrHere()
	cfg := lsp.DefaultConfig()
	cfg.MaxFileBytes = rf.MaxFileBytes
	maxThreads, maxThreadAge := threadLimits()
	opts := lsp.Options{
		Logger:          logger,
		Roots:           roots,
		CacheDir:        cacheDir(rf.Cache),
		ConfigDir:       configDir(),
		AllowBroadRoots: rf.AllowBroadRoot,
		Config:          &cfg,
		Agent:           agent.Config{Provider: *provider, BaseURL: *baseURL, Model: *model, Host: *host, NoModel: *noModel, Logger: logger, Env: modelEnv()},
		AnswerDir:       answerDir(),
		Version:         version,
		Runtime:         memtune.Process,
		MaxThreads:      maxThreads,
		MaxThreadAge:    maxThreadAge,
	}
	logger.Info("askls serve: language server on stdio", "version", version, "pid", os.Getpid())
	if hint := terminalHint(os.Stdin); hint != "" {
		fmt.Fprintln(os.Stderr, hint)
	}
	err := lsp.Serve(ctx, stdio{}, opts)
	if err != nil {
		return fmt.Errorf("askls serve: %w", err)
	}
	return nil
}

// terminalHint is what `askls` typed alone in a terminal prints: the
// server waits for LSP frames in silence, and a newcomer takes that for a
// hang. Empty when stdin is not a terminal (an editor started it).
func terminalHint(stdin *os.File) string {
	if !term.IsTerminal(int(stdin.Fd())) {
		return ""
	}
	return "askls: this is the language server: it speaks LSP on stdin/stdout and an editor starts it (Ctrl-D or Ctrl-C ends it).\n" +
		"askls: in a terminal, try `askls ask QUESTION`, `askls search QUERY` or `askls help`."
}

// stdio is the process's stdin and stdout as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err1 := os.Stdin.Close()
	err2 := os.Stdout.Close()
	if err1 != nil {
		return err1
	}
	return err2
}

var _ io.ReadWriteCloser = stdio{}
