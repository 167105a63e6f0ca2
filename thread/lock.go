package thread

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// lockRetry is how often a busy thread lock is tried again.
const lockRetry = 20 * time.Millisecond

// lockPath is the lock file of thread id (id already checked).
func (s *Store) lockPath(id string) string { return filepath.Join(s.dir, id+".lock") }

// Lock takes thread id's lock, waiting while another goroutine or process
// (the command line, the language server, the MCP server) holds it, until
// ctx is done. It is an operating-system file lock (flock on Unix,
// LockFileEx on Windows) on <id>.lock beside the thread's file: a process
// that dies holding it releases it. Call the returned func to unlock.
func (s *Store) Lock(ctx context.Context, id string) (unlock func(), err error) {
	if _, err := s.path(id); err != nil {
		return nil, err
	}
	l := flock.New(s.lockPath(id))
	ok, err := l.TryLockContext(ctx, lockRetry)
	if err != nil {
		return nil, fmt.Errorf("thread %s: waiting for its lock: %w", id, err)
	}
	if !ok {
		return nil, fmt.Errorf("thread %s: its lock was not taken", id)
	}
	return func() { l.Unlock() }, nil
}

// BeginTurn locks th for one turn and replaces *th with the thread as it
// is saved now, so a turn saved by another process meanwhile is seen and
// kept: ask, Save, then call end. A thread never saved (a new one) is kept
// as it is. Without the lock two follow-ups each load the thread, add
// their turn and save, and the last save drops the other's turn.
func (s *Store) BeginTurn(ctx context.Context, th *Thread) (end func(), err error) {
	unlock, err := s.Lock(ctx, th.ID)
	if err != nil {
		return nil, err
	}
	saved, err := s.Load(th.ID)
	switch {
	case err == nil:
		*th = *saved
	case errors.Is(err, ErrNotFound):
		// New, or deleted meanwhile: this turn saves it again.
	default:
		unlock()
		return nil, err
	}
	return unlock, nil
}

// removeLocked removes thread id's file and its lock file when no one
// holds the lock (without waiting); it reports whether it did.
func (s *Store) removeLocked(id string) bool {
	l := flock.New(s.lockPath(id))
	ok, err := l.TryLock()
	if err != nil || !ok {
		return false
	}
	defer l.Unlock()
	os.Remove(filepath.Join(s.dir, id+".json"))
	s.removeLockFile(id)
	return true
}

// removeLockFile removes the lock file of a thread that is gone. A process
// waiting on it then holds the lock of a removed file and finds no thread.
// On Windows a lock file open elsewhere is not removed; prune removes it
// later.
func (s *Store) removeLockFile(id string) { os.Remove(s.lockPath(id)) }
