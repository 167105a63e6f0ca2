package answerdoc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Folder holds the markdown files askls.ask and askls.showAnswer write
// for clients that open documents but cannot render a result (Helix). They
// live in one folder per server, under Options.AnswerDir (askls serve:
// the user's runtime folder, $XDG_RUNTIME_DIR/askls) or else the cache
// folder (os.UserCacheDir()/askls),
// and the folder is removed when the server stops. Folders left behind by a
// server that was killed (editors kill a server they restart) are removed by
// the next server: at once when their process is gone (where the system
// says so), else once they are a day old. Safe for concurrent use.
type Folder struct {
	base string // where the per-server folders go

	mu     sync.Mutex
	dir    string // this server's folder; "" until the first write
	closed bool   // removeAll ran: no more writes
}

// serversStarted numbers the servers of this process, so that several
// (tests) never share a folder.
var serversStarted atomic.Int64

// staleAnswers is how old another server's folder must be to be removed.
const staleAnswers = 24 * time.Hour

// DefaultBase is the user's cache folder, else the temporary
// folder.
func DefaultBase() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "askls")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("askls-%d", os.Getuid()))
}

// NewFolder is the folder of one server under base ("": DefaultBase()),
// created at the first Write; it removes the folders of servers that are
// gone.
func NewFolder(base string) *Folder {
	if base == "" {
		base = DefaultBase()
	}
	f := &Folder{base: base}
	f.removeStale() // editors kill servers on quit: the next one cleans up
	return f
}

// Write stores one answer's markdown as answer-ID.md and returns its path.
func (f *Folder) Write(id, markdown string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return "", fmt.Errorf("the server is stopping: answer %s was not written", id)
	}
	if f.dir == "" {
		if err := os.MkdirAll(f.base, 0o700); err != nil {
			return "", fmt.Errorf("creating %s: %w", f.base, err)
		}
		f.removeStale()
		dir := filepath.Join(f.base, fmt.Sprintf("answers-%d-%d", os.Getpid(), serversStarted.Add(1)))
		if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
			return "", fmt.Errorf("creating %s: %w", dir, err)
		}
		f.dir = dir
	}
	path := filepath.Join(f.dir, "answer-"+SafeName(id)+".md")
	if err := os.WriteFile(path, []byte(markdown), 0o600); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// RemoveAll removes this server's folder and the answers in it; later
// writes fail.
func (f *Folder) RemoveAll() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.dir == "" {
		return nil
	}
	err := os.RemoveAll(f.dir)
	f.dir = ""
	if err != nil {
		return fmt.Errorf("removing the answer files: %w", err)
	}
	return nil
}

// removeStale removes other servers' folders whose process is gone or that
// were not touched for a day (a server that was killed cannot remove its
// own). Caller holds mu.
func (f *Folder) removeStale() {
	entries, err := os.ReadDir(f.base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "answers-") {
			continue
		}
		var pid, n int
		gone := false
		if _, err := fmt.Sscanf(e.Name(), "answers-%d-%d", &pid, &n); err == nil && pid != os.Getpid() {
			gone = processGone(pid)
		}
		if fi, err := e.Info(); err == nil && (gone || time.Since(fi.ModTime()) > staleAnswers) {
			_ = os.RemoveAll(filepath.Join(f.base, e.Name()))
		}
	}
}
