package workspace

import (
	"errors"
	"strings"
	"sync"

	"github.com/askls/askls/thread"
)

// Values of FindThread's ref besides a thread id.
const (
	ThreadNew  = "new"  // start a thread
	ThreadLast = "last" // the most recent thread, else a new one
)

// threads is the thread store of the current roots, opened on first use
// and again when the roots change.
type threads struct {
	mu    sync.Mutex
	roots string
	store *thread.Store
}

// Threads is the thread store of the workspace's roots (those of the last
// Start, else the options'). Two follow-ups of one thread, from this
// process or another, run one after the other: the store's per-thread
// lock, which Ask.Run takes.
func (w *Workspace) Threads() (*thread.Store, error) {
	roots := w.Roots()
	if len(roots) == 0 {
		return nil, errors.New("no workspace folder: threads are kept per workspace")
	}
	ts := &w.threads
	ts.mu.Lock()
	defer ts.mu.Unlock()
	key := strings.Join(roots, "\n")
	if ts.store != nil && ts.roots == key {
		return ts.store, nil
	}
	st, err := thread.Open(w.threadOptions(roots))
	if err != nil {
		return nil, err
	}
	ts.store, ts.roots = st, key
	return st, nil
}

// FindThread resolves ref to a thread of the workspace: ThreadNew, a new
// one; ThreadLast, the most recent one, else a new one; any other, the
// thread with that id (thread.ErrNotFound when there is none).
func (w *Workspace) FindThread(ref string) (*thread.Store, *thread.Thread, error) {
	store, err := w.Threads()
	if err != nil {
		return nil, nil, err
	}
	var th *thread.Thread
	switch ref {
	case ThreadNew:
		th = store.New()
	case ThreadLast:
		th, err = store.Last()
		if errors.Is(err, thread.ErrNotFound) {
			th, err = store.New(), nil
		}
	default:
		th, err = store.Load(ref)
	}
	if err != nil {
		return nil, nil, err
	}
	return store, th, nil
}
