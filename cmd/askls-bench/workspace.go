package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/askls/askls/agent"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/rootflag"
	"github.com/askls/askls/workspace"
)

// rootFlags are the workspace flags of both commands: askls's, and the
// ranking parameters.
type rootFlags struct {
	rootflag.Flags
	tune string
}

func (r *rootFlags) register(fs *flag.FlagSet) {
	r.Register(fs)
	fs.StringVar(&r.tune, "tune", "", "ranking parameters `FIELD=VALUE,...` (fields of index.Ranking) changed from the defaults")
}

// openWorkspace opens and syncs the index of the roots, as `askls index`
// does, logging warnings to stderr. The caller closes the index.
func openWorkspace(ctx context.Context, r rootFlags) (*index.Index, error) {
	rk, err := parseTune(r.tune)
	if err != nil {
		return nil, err
	}
	opts := r.Options()
	if opts.CacheDir == "" {
		opts.CacheDir = os.Getenv("ASKLS_CACHE_DIR") // the commands read the environment
	}
	opts.ConfigDir = os.Getenv("XDG_CONFIG_HOME") // git's global ignore file, as askls index finds it
	opts.Ranking = rk
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return openSynced(ctx, opts)
}

// openSynced opens the index of opts and brings it up to date with its
// roots, as the workspace opens one for `askls index`; on an error
// nothing stays open.
func openSynced(ctx context.Context, opts index.Options) (*index.Index, error) {
	ix, _, err := workspace.OpenIndex(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("indexing %v: %w", opts.Roots, err)
	}
	return ix, nil
}

// modelFlags are the flags of bench --ask: which Ollama and model.
type modelFlags struct {
	model, host string
	timeout     time.Duration
}

func (f *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.model, "model", "", "Ollama `MODEL` (default "+agent.DefaultModel+")")
	fs.StringVar(&f.host, "ollama-host", "", "Ollama server `URL` (default $OLLAMA_HOST, else "+agent.DefaultHost+")")
	fs.DurationVar(&f.timeout, "timeout", 0, "time limit of one answer")
}

func (f modelFlags) config() agent.Config {
	return agent.Config{Host: f.host, Model: f.model, Timeout: f.timeout, Env: agent.Env{OllamaHost: os.Getenv("OLLAMA_HOST")}}
}
