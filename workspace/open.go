package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/askls/askls/index"
)

// Start (re)opens the index for s and syncs it in the background: the
// index before it is closed first. Requests never wait for the sync, only
// (briefly) for the open (Index); a front end that must wait for the
// sync calls Synced. The persisted manifest makes a reopen a cheap
// incremental sync.
func (w *Workspace) Start(s Scope) {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	w.stop()
	w.begin(s)
}

// StartOnce is Start unless the workspace was started already; it reports
// whether it started it.
func (w *Workspace) StartOnce(s Scope) bool {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	if w.Started() {
		return false
	}
	w.begin(s)
	return true
}

// begin starts the background open and sync of s. Caller holds startMu,
// and nothing runs.
func (w *Workspace) begin(s Scope) {
	ctx, cancel := context.WithCancel(context.Background())
	opened, synced, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	w.mu.Lock()
	w.ix, w.openErr, w.ready, w.syncErr = nil, nil, false, nil
	s.Roots = append([]string(nil), s.Roots...)
	w.scope = s
	w.opened, w.synced, w.cancel, w.done = opened, synced, cancel, done
	w.progress = index.Progress{}
	w.started = true
	w.mu.Unlock()

	go func() {
		defer close(done)
		defer close(synced)
		w.run(ctx, s, opened)
	}()
}

// run opens the index of s, publishes it with the open buffers, then
// syncs it and watches its files; opened is closed once w.ix or w.openErr
// is set.
func (w *Workspace) run(ctx context.Context, s Scope, opened chan struct{}) {
	ix, ind, err := w.open(ctx, s, w.damaged)
	if err != nil {
		if errors.Is(err, ErrNoRoots) {
			w.log.Warn("no workspace folder; questions fail until one is added")
		} else if !errors.Is(err, errNoUsableRoots) {
			w.log.Error("opening the index", "roots", s.Roots, "err", err)
			err = fmt.Errorf("opening the index: %w", err)
		}
		w.mu.Lock()
		w.openErr = err
		w.mu.Unlock()
		close(opened)
		return
	}
	w.publish(ix)
	close(opened)
	if h := w.opts.Hooks.Opened; h != nil {
		h(ctx, ix.Notices())
	}
	start := time.Now()
	st, err := ix.Sync(ctx)
	if ctx.Err() != nil {
		err = context.Canceled
	}
	w.recordSync(st, err)
	ind.Done(st, time.Since(start), err)
	switch {
	case errors.Is(err, context.Canceled):
	case err != nil:
		w.log.Error("indexing failed", "err", err)
	default:
		w.log.Info("index ready", "files", st.Files, "indexed", st.Indexed, "unchanged", st.Unchanged,
			"removed", st.Removed, "chunks", st.Chunks, "skipped", st.Skipped, "ms", time.Since(start).Milliseconds())
		w.watch(ctx, ix, s.Roots)
	}
}

// Open opens the index of the options' roots and syncs it in the caller
// (the commands): on an error nothing stays open. Close closes it.
func (w *Workspace) Open(ctx context.Context) (index.SyncStats, error) {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	w.stop()
	opened, synced := make(chan struct{}), make(chan struct{})
	defer close(synced)
	defer close(opened)
	w.mu.Lock()
	w.ix, w.openErr, w.ready, w.syncErr = nil, nil, false, nil
	w.opened, w.synced, w.cancel, w.done = opened, synced, nil, nil
	w.started = true
	s := w.scope
	w.mu.Unlock()
	st, err := w.openSynced(ctx, s)
	if err != nil {
		w.mu.Lock()
		w.openErr = err
		w.mu.Unlock()
	}
	return st, err
}

// openSynced opens and syncs the index of s and publishes it; on an error
// nothing stays open.
func (w *Workspace) openSynced(ctx context.Context, s Scope) (index.SyncStats, error) {
	ix, ind, err := w.open(ctx, s, nil)
	if err != nil {
		return index.SyncStats{}, err
	}
	start := time.Now()
	st, err := ix.Sync(ctx)
	ind.Done(st, time.Since(start), err)
	if err != nil {
		ix.Close()
		return st, err
	}
	w.publish(ix)
	w.recordSync(st, nil)
	if h := w.opts.Hooks.Opened; h != nil {
		h(ctx, ix.Notices())
	}
	return st, nil
}

// OpenIndex opens the index of opts and syncs it; on an error nothing
// stays open (the lab's figures: askls-bench).
func OpenIndex(ctx context.Context, opts index.Options) (*index.Index, index.SyncStats, error) {
	w := New(Options{Index: opts, Logger: opts.Logger})
	st, err := w.Open(ctx)
	if err != nil {
		return nil, st, err
	}
	return w.Current(), st, nil
}

// errNoUsableRoots: every root given was skipped (Hooks.SkipRoot).
var errNoUsableRoots = errors.New("no workspace folder can be served (see the messages about each)")

// open opens the index of s with progress reported to the Starting hook.
// onDamaged is index.Options.OnDamaged (nil: a damaged index is an error).
func (w *Workspace) open(ctx context.Context, s Scope, onDamaged func(error)) (*index.Index, Indexing, error) {
	roots := s.Roots
	skipping := w.opts.Hooks.SkipRoot != nil && len(roots) > 0
	if skipping {
		roots = w.usableRoots(roots)
	}
	ind := w.starting(ctx, roots)
	switch {
	case skipping && len(roots) == 0:
		return nil, nil, errNoUsableRoots
	case len(roots) == 0:
		return nil, nil, ErrNoRoots
	}
	opts := w.opts.Index
	opts.Roots = roots
	if s.MaxFileBytes != 0 {
		opts.MaxFileBytes = s.MaxFileBytes
	}
	if s.Exclude != nil {
		opts.Exclude = s.Exclude
	}
	opts.Logger = w.log
	opts.Progress = w.onProgress(ind)
	opts.OnDamaged = onDamaged
	opts.WalkAtOpen = true // Sync follows at once (openSynced, run)
	ix, err := index.Open(ctx, opts)
	if err != nil {
		ind.Done(index.SyncStats{}, 0, err)
		return nil, nil, err
	}
	return ix, ind, nil
}

// starting calls the Starting hook; never nil.
func (w *Workspace) starting(ctx context.Context, roots []string) Indexing {
	if h := w.opts.Hooks.Starting; h != nil {
		if ind := h(ctx, roots); ind != nil {
			return ind
		}
	}
	return noIndexing{}
}

type noIndexing struct{}

func (noIndexing) Progress(index.Progress)                    {}
func (noIndexing) Done(index.SyncStats, time.Duration, error) {}

// onProgress records the index's progress (Notice, Status) and passes it
// on at most ten times a second, and for phase "done".
func (w *Workspace) onProgress(ind Indexing) func(index.Progress) {
	var mu sync.Mutex
	var last time.Time
	return func(p index.Progress) {
		w.mu.Lock()
		w.progress = p
		w.mu.Unlock()
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 100*time.Millisecond && p.Phase != "done" {
			return
		}
		last = time.Now()
		ind.Progress(p)
	}
}

// recordSync records how the first sync ended.
func (w *Workspace) recordSync(st index.SyncStats, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ready = err == nil
	w.syncErr = err
	w.lastSync = st
}

// usableRoots leaves out the roots that cannot be indexed (gone, not a
// folder, unreadable), telling Hooks.SkipRoot why.
func (w *Workspace) usableRoots(roots []string) []string {
	skip := w.opts.Hooks.SkipRoot
	var ok []string
	for _, r := range roots {
		info, err := os.Stat(r)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			skip(r, "it does not exist")
		case err != nil:
			skip(r, err.Error())
		case !info.IsDir():
			skip(r, "it is a file, not a folder")
		default:
			if _, err := os.ReadDir(r); err != nil {
				skip(r, "it cannot be read ("+err.Error()+")")
				continue
			}
			ok = append(ok, r)
		}
	}
	return ok
}
