package lsp

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

// workspace owns the index of the current roots. Opening and the first
// Sync run in the background after initialized; requests never wait for
// the Sync, only (briefly) for Open. When the roots or the index settings
// change, the index is closed and opened again for the new roots (the
// persisted manifest makes that a cheap incremental sync).
type workspace struct {
	s       *server
	startMu sync.Mutex // one start at a time

	mu        sync.Mutex
	ix        *index.Index
	roots     []string
	opened    chan struct{} // closed when ix is set or openErr is
	openErr   error
	cancel    context.CancelFunc
	done      chan struct{} // closed when the background goroutine ends
	ready     bool          // the first Sync finished
	syncErr   error
	progress  index.Progress
	lastSync  index.SyncStats
	isStarted bool

	// Workspace folders that cannot be served, each reported once.
	badMu    sync.Mutex
	bad      []string        // messages not yet reported
	reported map[string]bool // folders (or URIs) already reported
}

// editDebounce is how long the index writer waits to coalesce edits to
// one file. Short: a question typed right after an edit should find it.
const editDebounce = 10 * time.Millisecond

// openWait bounds how long a request waits for the index to open (not
// to sync: that is never waited for).
const openWait = 30 * time.Second

var errNoRoots = errors.New("no workspace folder: open a folder (or pass --root to askls serve)")

func newWorkspace(s *server) *workspace {
	w := &workspace{s: s, opened: make(chan struct{}), reported: map[string]bool{}}
	return w
}

func (w *workspace) started() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.isStarted
}

// start (re)opens the index for roots and syncs it in the background.
func (w *workspace) start(roots []string, cfg Config) {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	w.stop()

	ctx, cancel := context.WithCancel(context.Background())
	opened := make(chan struct{})
	done := make(chan struct{})
	w.mu.Lock()
	w.ix, w.openErr, w.ready, w.syncErr = nil, nil, false, nil
	w.roots = append([]string(nil), roots...)
	w.opened, w.cancel, w.done = opened, cancel, done
	w.progress = index.Progress{}
	w.isStarted = true
	w.mu.Unlock()

	go func() {
		defer close(done)
		w.run(ctx, roots, cfg, opened)
	}()
}

// skipFolder records that a workspace folder cannot be served and why;
// it is reported to the user once (reportBad), and the others are served.
func (w *workspace) skipFolder(folder, why string) {
	w.badMu.Lock()
	defer w.badMu.Unlock()
	if w.reported[folder] {
		return
	}
	w.reported[folder] = true
	w.bad = append(w.bad, fmt.Sprintf("askls skips the workspace folder %s: %s. The other folders are served.", folder, why))
}

// reportBad sends the messages of skipFolder not yet sent.
func (w *workspace) reportBad(ctx context.Context) {
	w.badMu.Lock()
	msgs := w.bad
	w.bad = nil
	w.badMu.Unlock()
	for _, m := range msgs {
		w.s.log.Warn(m)
		w.s.notify(ctx, "window/showMessage", map[string]any{"type": 2, "message": m})
	}
}

// usableRoots leaves out the roots that cannot be indexed (gone, not a
// folder, unreadable), recording why.
func (w *workspace) usableRoots(roots []string) []string {
	var ok []string
	for _, r := range roots {
		info, err := os.Stat(r)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			w.skipFolder(r, "it does not exist")
		case err != nil:
			w.skipFolder(r, err.Error())
		case !info.IsDir():
			w.skipFolder(r, "it is a file, not a folder")
		default:
			if _, err := os.ReadDir(r); err != nil {
				w.skipFolder(r, "it cannot be read ("+err.Error()+")")
				continue
			}
			ok = append(ok, r)
		}
	}
	return ok
}

// run opens the index of roots, publishes it with the open buffers, then
// syncs it; opened is closed once w.ix or w.openErr is set.
func (w *workspace) run(ctx context.Context, roots []string, cfg Config, opened chan struct{}) {
	log := w.s.log
	if len(roots) > 0 {
		roots = w.usableRoots(roots)
		w.reportBad(ctx)
		if len(roots) == 0 {
			w.failOpen(opened, errors.New("no workspace folder can be served (see the messages about each)"))
			return
		}
	} else {
		w.reportBad(ctx)
	}
	if len(roots) == 0 {
		w.failOpen(opened, errNoRoots)
		log.Warn("no workspace folder; askls/ask will fail until one is added")
		return
	}
	prog := w.s.beginProgress(ctx, nil, "indexing", "opening the index", nil)
	ix, err := index.Open(ctx, index.Options{
		Roots:           roots,
		CacheDir:        w.s.opts.CacheDir,
		MaxFileBytes:    cfg.MaxFileBytes,
		Exclude:         cfg.Exclude,
		Logger:          log,
		Debounce:        editDebounce,
		Progress:        w.onProgress(prog),
		AllowBroadRoots: w.s.opts.AllowBroadRoots,
		Runtime:         w.s.opts.Runtime,
		// A search found the persisted index damaged (and answered with
		// an error): reopen it, which rebuilds it.
		OnDamaged: w.s.reopenDamaged,
	})
	if err != nil {
		w.failOpen(opened, fmt.Errorf("opening the index: %w", err))
		prog.end("failed: " + err.Error())
		log.Error("opening the index", "roots", roots, "err", err)
		return
	}
	w.publish(ix)
	close(opened)
	for _, msg := range ix.Notices() {
		w.s.notify(ctx, "window/showMessage", map[string]any{"type": 2, "message": "askls: " + msg})
	}
	w.firstSync(ctx, ix, prog)
}

// failOpen records why no index serves the workspace and closes opened.
func (w *workspace) failOpen(opened chan struct{}, err error) {
	w.mu.Lock()
	w.openErr = err
	w.mu.Unlock()
	close(opened)
}

// publish makes ix the workspace's index and hands it the open buffers in
// one step with respect to edits, so no edit is lost or applied out of
// order.
func (w *workspace) publish(ix *index.Index) {
	w.s.editMu.Lock()
	defer w.s.editMu.Unlock()
	w.mu.Lock()
	w.ix = ix
	w.mu.Unlock()
	w.s.lastGen = 0 // generations count per index
	for _, d := range w.s.docs.all() {
		if p, ok := w.s.indexPath(ix, d.uri); ok {
			w.s.noteGen(ix.Update(p, d.content))
		}
	}
}

// firstSync brings ix up to date with the files, records the outcome and
// ends the progress report with it.
func (w *workspace) firstSync(ctx context.Context, ix *index.Index, prog *progress) {
	start := time.Now()
	st, err := ix.Sync(ctx)
	w.mu.Lock()
	w.ready = err == nil
	w.syncErr = err
	w.lastSync = st
	w.mu.Unlock()
	switch {
	case ctx.Err() != nil:
		prog.end("stopped")
	case err != nil:
		prog.end("failed: " + err.Error())
		w.s.log.Error("indexing failed", "err", err)
	default:
		msg := fmt.Sprintf("%d files (%d indexed, %d unchanged, %d removed) in %s", st.Files, st.Indexed, st.Unchanged, st.Removed, time.Since(start).Round(time.Millisecond))
		prog.end(msg)
		w.s.log.Info("index ready", "files", st.Files, "indexed", st.Indexed, "unchanged", st.Unchanged,
			"removed", st.Removed, "chunks", st.Chunks, "skipped", st.Skipped, "ms", time.Since(start).Milliseconds())
	}
}

// onProgress turns index progress into work-done reports, at most ten a
// second.
func (w *workspace) onProgress(prog *progress) func(index.Progress) {
	var last time.Time
	return func(p index.Progress) {
		w.mu.Lock()
		w.progress = p
		w.mu.Unlock()
		if time.Since(last) < 100*time.Millisecond && p.Phase != "done" {
			return
		}
		last = time.Now()
		msg := p.Phase
		pct := -1
		if p.Total > 0 {
			msg = fmt.Sprintf("%s: %d/%d files", p.Phase, p.Done, p.Total)
			pct = p.Done * 100 / p.Total
		} else if p.Done > 0 {
			msg = fmt.Sprintf("%s: %d files", p.Phase, p.Done)
		}
		prog.report(msg, pct)
	}
}

// stop cancels the background goroutine and closes the index.
func (w *workspace) stop() {
	w.mu.Lock()
	cancel, done := w.cancel, w.done
	w.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	w.mu.Lock()
	ix := w.ix
	w.ix = nil
	w.mu.Unlock()
	if ix != nil {
		if err := ix.Close(); err != nil {
			w.s.log.Warn("closing the index", "err", err)
		}
	}
}

// stopSync stops the background sync (shutdown) but keeps the index open.
func (w *workspace) stopSync() {
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (w *workspace) close() {
	w.startMu.Lock()
	defer w.startMu.Unlock()
	w.stop()
}

// current returns the open index, or nil while it is opening.
func (w *workspace) current() *index.Index {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ix
}

// get waits until the index is open (not synced) or ctx ends.
func (w *workspace) get(ctx context.Context) (*index.Index, error) {
	w.mu.Lock()
	opened, started := w.opened, w.isStarted
	w.mu.Unlock()
	if !started {
		return nil, errors.New("the workspace is not open yet (initialized not received)")
	}
	select {
	case <-opened:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(openWait):
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

// notice says why an answer may be incomplete, or "".
func (w *workspace) notice() string {
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

type wsStatus struct {
	Roots    []string        `json:"roots"`
	Ready    bool            `json:"ready"`
	Progress index.Progress  `json:"progress"`
	Error    string          `json:"error,omitempty"`
	LastSync index.SyncStats `json:"lastSync"`
}

func (w *workspace) status() wsStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := wsStatus{Roots: w.roots, Ready: w.ready, Progress: w.progress, LastSync: w.lastSync}
	if w.openErr != nil {
		st.Error = w.openErr.Error()
	} else if w.syncErr != nil {
		st.Error = w.syncErr.Error()
	}
	return st
}
