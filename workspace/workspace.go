package workspace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/askls/askls/index"
	"github.com/askls/askls/thread"
)

// Options configure a Workspace.
type Options struct {
	// Index is the base of the index's options. Roots are the workspace's
	// until a Start names others; Logger, Progress and OnDamaged are set
	// by the workspace. CacheDir is resolved once by New (index.CacheDir)
	// and serves the thread store too.
	Index index.Options
	// MaxThreads and MaxThreadAge bound the thread store (thread.Options);
	// zero: its defaults.
	MaxThreads   int
	MaxThreadAge time.Duration
	// Watch keeps the index current with a file watcher after the first
	// sync, for a front end that no editor tells of changed files (MCP).
	Watch bool
	// Logger receives the workspace's and the index's logs. Default:
	// slog.Default().
	Logger *slog.Logger
	// Hooks hear what a Start or Open does.
	Hooks Hooks
}

// Hooks tell a front end what the workspace does while it opens and
// syncs an index. Every field may be nil. They are called from the
// goroutine doing the work: a Start's own, or Open's caller.
type Hooks struct {
	// SkipRoot hears of a root that cannot be indexed (gone, a file,
	// unreadable): the others are served without it. Nil: every root goes
	// to index.Open, which fails on such a one.
	SkipRoot func(root, why string)
	// Starting is called as an index starts to open, with the roots it
	// will hold (none: the open fails at once). What it returns hears the
	// progress and the end; nil hears nothing.
	Starting func(ctx context.Context, roots []string) Indexing
	// Opened is called once the index is open and holds the open buffers,
	// with what it says about its roots (index.Index.Notices).
	Opened func(ctx context.Context, notices []string)
}

// Indexing hears one open and first sync of an index.
type Indexing interface {
	// Progress is called at most ten times a second, and for phase "done".
	Progress(p index.Progress)
	// Done is called once: err is why the open or the sync failed
	// (context.Canceled when it was stopped), stats and took the sync's.
	Done(stats index.SyncStats, took time.Duration, err error)
}

// Scope is what a Start indexes: the roots, and the settings that change
// what enters the index. Zero settings keep Options.Index's.
type Scope struct {
	Roots        []string
	MaxFileBytes int64
	Exclude      []string
}

// Errors of Index and Synced.
var (
	ErrNoRoots    = errors.New("no workspace folder")
	ErrNotStarted = errors.New("the workspace is not open yet")
)

// openWait bounds how long Index waits for the index to open (not to
// sync: that is never waited for).
const openWait = 30 * time.Second

// Workspace owns the index of a set of roots: opening it, its first sync
// in the background (Start) or in the caller (Open), a file watcher, the
// open buffers it holds, its snapshots, its threads and its questions.
// Safe for concurrent use.
type Workspace struct {
	opts Options
	log  *slog.Logger

	startMu sync.Mutex // one Start (or Close) at a time

	mu       sync.Mutex
	ix       *index.Index
	scope    Scope
	started  bool
	opened   chan struct{} // closed when ix or openErr is set
	synced   chan struct{} // closed when the first sync ended (or the open failed)
	openErr  error
	cancel   context.CancelFunc
	done     chan struct{} // closed when the Start's goroutine ends
	ready    bool          // the first sync finished without an error
	syncErr  error
	progress index.Progress
	lastSync index.SyncStats
	watcher  *watcher

	buffers buffers // buffers.go
	threads threads // threads.go
}

// New returns a workspace of opts.Index.Roots; nothing is opened until
// Start or Open.
func New(opts Options) *Workspace {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if dir, err := index.CacheDir(opts.Index.CacheDir); err == nil {
		opts.Index.CacheDir = dir // else index.Open says why
	}
	return &Workspace{
		opts:    opts,
		log:     opts.Logger,
		scope:   Scope{Roots: opts.Index.Roots},
		opened:  make(chan struct{}),
		synced:  make(chan struct{}),
		buffers: buffers{open: map[string]Text{}},
	}
}

// CacheDir is the cache folder of the index and the threads.
func (w *Workspace) CacheDir() string { return w.opts.Index.CacheDir }

// Roots are the roots of the last Start, else of the options.
func (w *Workspace) Roots() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.scope.Roots
}

// Started reports whether Start or Open was called.
func (w *Workspace) Started() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started
}

// Current is the open index, or nil while it opens (or when none could).
func (w *Workspace) Current() *index.Index {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ix
}

// Index waits (at most 30 s) until the index is open, not synced, or ctx
// ends.
func (w *Workspace) Index(ctx context.Context) (*index.Index, error) {
	w.mu.Lock()
	opened, started := w.opened, w.started
	w.mu.Unlock()
	if !started {
		return nil, ErrNotStarted
	}
	t := time.NewTimer(openWait)
	defer t.Stop()
	select {
	case <-opened:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, fmt.Errorf("the index has been opening for %s (is another askls using the same cache? see --cache); try again", openWait)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.openErr != nil {
		return nil, w.openErr
	}
	if w.ix == nil {
		return nil, errors.New("the index was closed (the workspace changed); ask again")
	}
	return w.ix, nil
}

// Synced waits until the first sync of the index ended (or ctx did) and
// returns why the open or the sync failed.
func (w *Workspace) Synced(ctx context.Context) error {
	w.mu.Lock()
	synced, started, roots := w.synced, w.started, w.scope.Roots
	w.mu.Unlock()
	if !started {
		return ErrNotStarted
	}
	select {
	case <-synced:
	case <-ctx.Done():
		return fmt.Errorf("the workspace is still being indexed: %w", ctx.Err())
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.openErr != nil:
		return w.openErr
	case w.syncErr != nil:
		return fmt.Errorf("indexing %v: %w", roots, w.syncErr)
	}
	return nil
}

// Sync brings the open index up to date with the files (askls chat, between
// questions).
func (w *Workspace) Sync(ctx context.Context) (index.SyncStats, error) {
	ix, err := w.Index(ctx)
	if err != nil {
		return index.SyncStats{}, err
	}
	return ix.Sync(ctx)
}

// CheckStore checks the open index's store after a panic: a damaged one is
// reopened, which rebuilds it.
func (w *Workspace) CheckStore() {
	ix := w.Current()
	if ix == nil {
		return
	}
	if err := ix.CheckStore(); errors.Is(err, index.ErrDamaged) {
		w.damaged(err)
	}
}

// damaged reopens the index of the current scope, as a new Start: the
// index found damaged is rebuilt as it opens. It is index.Options.OnDamaged
// of a started workspace, called from a search's goroutine.
func (w *Workspace) damaged(err error) {
	w.log.Error("the index is damaged; reopening it to rebuild it", "err", err)
	w.mu.Lock()
	s := w.scope
	w.mu.Unlock()
	go w.Start(s)
}

// Notice says why an answer may be incomplete (the index is still
// building, or its sync failed), or "".
func (w *Workspace) Notice() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ready {
		return ""
	}
	if w.syncErr != nil {
		return "indexing failed (" + w.syncErr.Error() + "); answers come from the files indexed so far"
	}
	p := w.progress
	if p.Total > 0 {
		return fmt.Sprintf("index still building (%s: %d%% of %d files); answers come from what is indexed so far", p.Phase, p.Done*100/p.Total, p.Total)
	}
	return "index still building; answers come from what is indexed so far"
}

// Status is the workspace as askls.status shows it: plain JSON that any
// JSON library reads back, a duration a number with its unit in its name.
type Status struct {
	Roots    []string     `json:"roots"`
	Ready    bool         `json:"ready"`
	Progress SyncProgress `json:"progress"`
	Error    string       `json:"error,omitempty"`
	LastSync SyncSummary  `json:"lastSync"`
}

// SyncProgress is index.Progress: a first sync in flight.
type SyncProgress struct {
	Phase string `json:"phase"` // "walk", "hash", "index", "done"
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// SyncSummary is index.SyncStats: what the last opening's sync did.
type SyncSummary struct {
	Files       int            `json:"files"`
	Unchanged   int            `json:"unchanged"`
	Indexed     int            `json:"indexed"`
	Removed     int            `json:"removed"`
	Chunks      int            `json:"chunks"`
	Skipped     map[string]int `json:"skipped"`
	IgnoreNotes []string       `json:"ignoreNotes"`
	DurationMs  float64        `json:"durationMs"`
}

// Status says where the workspace stands.
func (w *Workspace) Status() Status {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, l := w.progress, w.lastSync
	st := Status{
		Roots: w.scope.Roots, Ready: w.ready,
		Progress: SyncProgress{Phase: p.Phase, Done: p.Done, Total: p.Total},
		LastSync: SyncSummary{Files: l.Files, Unchanged: l.Unchanged, Indexed: l.Indexed, Removed: l.Removed,
			Chunks: l.Chunks, Skipped: l.Skipped, IgnoreNotes: l.IgnoreNotes,
			DurationMs: float64(l.Duration.Microseconds()) / 1000},
	}
	if w.openErr != nil {
		st.Error = w.openErr.Error()
	} else if w.syncErr != nil {
		st.Error = w.syncErr.Error()
	}
	return st
}

// StopSync stops a Start's sync (the server shuts down) but keeps the
// index open.
func (w *Workspace) StopSync() {
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Close stops the background work and the watcher and closes the index.
func (w *Workspace) Close() {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	w.stop()
}

// stop cancels a Start's goroutine, waits for it and closes the watcher
// and the index. Caller holds startMu.
func (w *Workspace) stop() {
	w.mu.Lock()
	cancel, done := w.cancel, w.done
	w.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	w.mu.Lock()
	ix, wt := w.ix, w.watcher
	w.ix, w.watcher = nil, nil
	w.mu.Unlock()
	if wt != nil {
		wt.close()
	}
	if ix != nil {
		if err := ix.Close(); err != nil {
			w.log.Warn("closing the index", "err", err)
		}
	}
}

// threadOptions are the thread store's options for roots.
func (w *Workspace) threadOptions(roots []string) thread.Options {
	return thread.Options{CacheDir: w.opts.Index.CacheDir, Workspace: roots, MaxThreads: w.opts.MaxThreads, MaxAge: w.opts.MaxThreadAge}
}
