package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/workspace"
)

// The workspace (roots, index, open buffers, threads, questions) is
// workspace.Workspace's; this file tells it the client's folders and
// settings and tells the client what it does: work-done progress while it
// indexes, messages about folders it skips and roots it refuses.

// editDebounce is how long the index writer waits to coalesce edits to
// one file. Short: a question typed right after an edit should find it.
const editDebounce = 10 * time.Millisecond

// newWorkspace is the server's workspace: index options from the server's
// options, hooks that report to the client.
func newWorkspace(s *server) *workspace.Workspace {
	return workspace.New(workspace.Options{
		Index: index.Options{
			CacheDir:        s.opts.CacheDir,
			ConfigDir:       s.opts.ConfigDir,
			Debounce:        editDebounce,
			AllowBroadRoots: s.opts.AllowBroadRoots,
			Runtime:         s.opts.Runtime,
		},
		MaxThreads:   s.opts.MaxThreads,
		MaxThreadAge: s.opts.MaxThreadAge,
		Logger:       s.log,
		Hooks: workspace.Hooks{
			SkipRoot: s.skipped.skip,
			Starting: s.indexingStarts,
			Opened: func(ctx context.Context, notices []string) {
				for _, msg := range notices {
					s.notify(ctx, "window/showMessage", map[string]any{"type": 2, "message": withAsklsPrefix(msg)})
				}
			},
		},
	})
}

// startWorkspace (re)opens the index of the current folders and settings.
func (s *server) startWorkspace() {
	s.mu.Lock()
	scope := workspace.Scope{Roots: rootsOf(s.folders), MaxFileBytes: s.cfg.MaxFileBytes, Exclude: s.cfg.Exclude}
	s.mu.Unlock()
	s.ws.Start(scope)
}

// index waits until the index is open (not synced), with the errors said
// the way a client needs them.
func (s *server) index(ctx context.Context) (*index.Index, error) {
	ix, err := s.ws.Index(ctx)
	switch {
	case errors.Is(err, workspace.ErrNotStarted):
		return nil, fmt.Errorf("%w (initialized not received)", err)
	case errors.Is(err, workspace.ErrNoRoots):
		return nil, fmt.Errorf("%w: open a folder (or pass --root to askls serve)", err)
	}
	return ix, err
}

// skippedFolders are workspace folders that cannot be served, each
// reported to the user once; the others are served.
type skippedFolders struct {
	mu       sync.Mutex
	pending  []string        // messages not yet reported
	reported map[string]bool // folders (or URIs) already reported
}

// skip records that folder cannot be served and why (workspace.Hooks.SkipRoot).
func (f *skippedFolders) skip(folder, why string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.reported == nil {
		f.reported = map[string]bool{}
	}
	if f.reported[folder] {
		return
	}
	f.reported[folder] = true
	f.pending = append(f.pending, fmt.Sprintf("askls skips the workspace folder %s: %s. The other folders are served.", folder, why))
}

// take returns the messages not yet reported.
func (f *skippedFolders) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	msgs := f.pending
	f.pending = nil
	return msgs
}

// indexingStarts (workspace.Hooks.Starting) reports the skipped folders,
// then shows the indexing of roots as work-done progress.
func (s *server) indexingStarts(ctx context.Context, roots []string) workspace.Indexing {
	for _, m := range s.skipped.take() {
		s.log.Warn(m)
		s.notify(ctx, "window/showMessage", map[string]any{"type": 2, "message": m})
	}
	if len(roots) == 0 {
		return nil
	}
	return indexingProgress{s.beginProgress(ctx, nil, "indexing", "opening the index", nil)}
}

// indexingProgress shows an index's open and first sync as work-done
// progress.
type indexingProgress struct{ prog *progress }

func (p indexingProgress) Progress(ip index.Progress) {
	msg := ip.Phase
	pct := -1
	if ip.Total > 0 {
		msg = fmt.Sprintf("%s: %d/%d files", ip.Phase, ip.Done, ip.Total)
		pct = ip.Done * 100 / ip.Total
	} else if ip.Done > 0 {
		msg = fmt.Sprintf("%s: %d files", ip.Phase, ip.Done)
	}
	p.prog.report(msg, pct)
}

func (p indexingProgress) Done(st index.SyncStats, took time.Duration, err error) {
	switch {
	case errors.Is(err, context.Canceled):
		p.prog.end("stopped")
	case err != nil:
		p.prog.end("failed: " + err.Error())
	default:
		p.prog.end(fmt.Sprintf("%d files (%d indexed, %d unchanged, %d removed) in %s", st.Files, st.Indexed, st.Unchanged, st.Removed, took.Round(time.Millisecond)))
	}
}

// withAsklsPrefix names askls at the head of a message shown to the user,
// once: a message that already starts with "askls" keeps its own words.
func withAsklsPrefix(msg string) string {
	if strings.HasPrefix(msg, "askls") {
		return msg
	}
	return "askls: " + msg
}
