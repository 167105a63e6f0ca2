package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/askls/askls/index"
)

// workspace opens the index once, for the first roots it is given, and
// keeps it current with a file watcher.
type workspace struct {
	opts Options
	log  *slog.Logger

	once    sync.Once
	begun   atomic.Bool
	ready   chan struct{} // closed when ix or err is set
	ix      *index.Index
	err     error
	watcher *watcher
	cancel  context.CancelFunc
}

func newWorkspace(opts Options) *workspace {
	return &workspace{opts: opts, log: opts.Logger, ready: make(chan struct{})}
}

// start opens and syncs the index of roots in the background; only the
// first call does anything.
func (w *workspace) start(roots []string) {
	w.once.Do(func() {
		w.begun.Store(true)
		ctx, cancel := context.WithCancel(context.Background())
		w.cancel = cancel
		go w.open(ctx, roots)
	})
}

func (w *workspace) open(ctx context.Context, roots []string) {
	defer close(w.ready)
	if len(roots) == 0 {
		w.err = errors.New("no workspace: pass --root DIR to askls mcp, or use a client that sends its roots")
		return
	}
	ix, err := index.Open(ctx, index.Options{Roots: roots, CacheDir: w.opts.CacheDir, MaxFileBytes: w.opts.MaxFileBytes, Logger: w.log})
	if err != nil {
		w.err = fmt.Errorf("opening the index of %v: %w", roots, err)
		return
	}
	if _, err := ix.Sync(ctx); err != nil {
		ix.Close()
		w.err = fmt.Errorf("indexing %v: %w", roots, err)
		return
	}
	w.ix = ix
	if w.opts.Watch {
		wt, err := watch(ctx, ix, roots, w.log)
		if err != nil {
			w.log.Warn("askls mcp: not watching files; answers follow the files only after a restart", "err", err)
		} else {
			w.watcher = wt
		}
	}
	w.log.Info("askls mcp: workspace ready", "roots", roots, "files", ix.Stats().Files)
}

func (w *workspace) started() bool { return w.begun.Load() }

// index waits for the index to be ready (or ctx to end).
func (w *workspace) index(ctx context.Context) (*index.Index, error) {
	select {
	case <-w.ready:
		return w.ix, w.err
	case <-ctx.Done():
		return nil, fmt.Errorf("the workspace is still being indexed: %w", ctx.Err())
	}
}

func (w *workspace) close() {
	if w.cancel != nil {
		w.cancel()
		<-w.ready
	}
	if w.watcher != nil {
		w.watcher.close()
	}
	if w.ix != nil {
		w.ix.Close()
	}
}

// rootsFromURIs turns a client's file:// roots into folders that exist.
func rootsFromURIs(uris []string) []string {
	var out []string
	for _, u := range uris {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "file" {
			continue
		}
		dir := filepath.FromSlash(p.Path)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, dir)
		}
	}
	return out
}
