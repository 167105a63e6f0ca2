package index

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// tempPrefix names the temporary indexes of runs that cannot use a
// persisted one, in os.TempDir().
const tempPrefix = "askls-index-"

// staleAfter: a temporary index whose lock is free and older than this is
// left over by a process that died (kill -9) and is removed. The age keeps
// apart one whose owner has created it but not yet locked it.
const staleAfter = time.Minute

// newTempIndex makes a temporary index folder for r and locks it (its
// lock file "lock", held while the process lives), after removing the
// temporary indexes of dead processes.
func newTempIndex(r *root, log *slog.Logger) (string, error) {
	removeStaleTemps(log)
	tmp, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return "", err
	}
	l := flock.New(filepath.Join(tmp, "lock"))
	if ok, err := l.TryLock(); err == nil && ok {
		r.lock = l
	}
	return tmp, nil
}

// removeStaleTemps removes the temporary indexes whose owner is gone: a
// process that was killed never removed its own (46 MB on GOROOT each).
// One is in use while its lock is held; one without a lock file (an older
// askls, or a process killed before it locked) goes after an hour.
func removeStaleTemps(log *slog.Logger) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, dir := range dirs {
		if stale, why := staleTemp(dir); stale {
			if err := os.RemoveAll(dir); err == nil {
				log.Info("index: removed the temporary index of a process that is gone", "folder", dir, "why", why)
			}
		}
	}
}

// staleTemp says whether the temporary index dir is left over, and why.
func staleTemp(dir string) (bool, string) {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return false, ""
	}
	lockPath := filepath.Join(dir, "lock")
	li, err := os.Stat(lockPath)
	if err != nil {
		if os.IsNotExist(err) && time.Since(info.ModTime()) > time.Hour {
			return true, "no lock file, untouched for an hour"
		}
		return false, ""
	}
	if time.Since(li.ModTime()) < staleAfter {
		return false, ""
	}
	l := flock.New(lockPath)
	ok, err := l.TryLock()
	if err != nil || !ok {
		return false, "" // its process is alive
	}
	l.Unlock()
	return true, fmt.Sprintf("its lock is free (made %s)", li.ModTime().Format(time.RFC3339))
}
