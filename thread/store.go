package thread

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/blake3"
)

// Defaults of Options (the commands take $ASKLS_THREADS_MAX and
// $ASKLS_THREADS_MAX_AGE).
const (
	DefaultMaxThreads = 100
	DefaultMaxAge     = 30 * 24 * time.Hour
)

// ErrNotFound is returned for a thread id the store does not hold.
var ErrNotFound = errors.New("no such thread")

// Options configure a Store. Zero values mean the defaults.
type Options struct {
	// CacheDir is the cache folder, as the workspace resolved it for the
	// index too (index.CacheDir). Required.
	CacheDir string
	// Workspace names the workspace: its roots, as given to Open.
	Workspace []string
	// MaxThreads is how many threads are kept per workspace.
	MaxThreads int
	// MaxAge is how long a thread is kept after its last turn.
	MaxAge time.Duration
}

// Store holds the threads of one workspace.
type Store struct {
	dir       string
	workspace string
	maxN      int
	maxAge    time.Duration
	mu        sync.Mutex
}

// Summary describes a thread in a list.
type Summary struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Turns   int       `json:"turns"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Open returns the store of opts.Workspace, creating its folder.
func Open(opts Options) (*Store, error) {
	if opts.CacheDir == "" {
		return nil, errors.New("thread store: no cache folder")
	}
	ws := workspaceName(opts.Workspace)
	sum := blake3.Sum256([]byte(ws))
	s := &Store{
		dir:       filepath.Join(opts.CacheDir, "threads", hex.EncodeToString(sum[:8])),
		workspace: ws,
		maxN:      opts.MaxThreads,
		maxAge:    opts.MaxAge,
	}
	if s.maxN <= 0 {
		s.maxN = DefaultMaxThreads
	}
	if s.maxAge <= 0 {
		s.maxAge = DefaultMaxAge
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("thread store: %w", err)
	}
	return s, nil
}

// workspaceName is the roots, absolute and cleaned, sorted, one a line.
func workspaceName(roots []string) string {
	var out []string
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		if real, err := filepath.EvalSymlinks(r); err == nil {
			r = real
		}
		out = append(out, filepath.Clean(r))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// Dir is the folder holding this workspace's threads.
func (s *Store) Dir() string { return s.dir }

// New returns an empty thread of this workspace (not saved until Save).
func (s *Store) New() *Thread { return New(s.workspace) }

var idRE = regexp.MustCompile(`^[0-9a-f]{16}$`)

// path is the file of thread id; an id that is not 16 hex digits is not
// found (it never names a file outside the folder).
func (s *Store) path(id string) (string, error) {
	if !idRE.MatchString(id) {
		return "", fmt.Errorf("%w: %q (a thread id is 16 hex digits)", ErrNotFound, id)
	}
	return filepath.Join(s.dir, id+".json"), nil
}

// Save writes th whole, atomically, then drops threads past the bounds
// (never th).
func (s *Store) Save(th *Thread) error {
	p, err := s.path(th.ID)
	if err != nil {
		return err
	}
	data, err := json.Marshal(th)
	if err != nil {
		return fmt.Errorf("thread %s: %w", th.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := writeAtomic(p, data); err != nil {
		return fmt.Errorf("thread %s: %w", th.ID, err)
	}
	s.prune(th.ID)
	return nil
}

// writeAtomic writes data to a temporary file in p's folder, syncs it and
// renames it over p.
func writeAtomic(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Load reads thread id.
func (s *Store) Load(id string) (*Thread, error) {
	p, err := s.path(id)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("thread %s: %w", id, err)
	}
	var th Thread
	if err := json.Unmarshal(data, &th); err != nil {
		return nil, fmt.Errorf("thread %s: the file %s is not a thread: %w", id, p, err)
	}
	if th.ID != id {
		return nil, fmt.Errorf("thread %s: the file %s holds thread %q", id, p, th.ID)
	}
	return &th, nil
}

// Delete removes thread id.
func (s *Store) Delete(id string) error {
	p, err := s.path(id)
	if err != nil {
		return err
	}
	// Wait for a turn in flight (in this or another process) to be saved
	// first, so that it does not bring the thread back.
	unlock, err := s.Lock(context.Background(), id)
	if err != nil {
		return err
	}
	defer unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	err = os.Remove(p)
	if errors.Is(err, fs.ErrNotExist) {
		s.removeLockFile(id)
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err == nil {
		s.removeLockFile(id)
	}
	return err
}

// List returns the threads, the most recently updated first. A file that
// cannot be read as a thread is left out.
func (s *Store) List() ([]Summary, error) {
	files, err := s.files()
	if err != nil {
		return nil, err
	}
	out := []Summary{}
	for _, f := range files {
		th, err := s.Load(f.id)
		if err != nil {
			continue
		}
		out = append(out, Summary{ID: th.ID, Title: th.Title(), Turns: len(th.Turns), Created: th.Created, Updated: th.Updated})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// Last returns the most recently updated thread, ErrNotFound when none.
func (s *Store) Last() (*Thread, error) {
	list, err := s.List()
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%w: this workspace has no threads yet", ErrNotFound)
	}
	return s.Load(list[0].ID)
}

type file struct {
	id  string
	mod time.Time
}

// files lists the thread files, newest first by modification time.
func (s *Store) files() ([]file, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("thread store: %w", err)
	}
	var out []file
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !idRE.MatchString(id) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, file{id: id, mod: info.ModTime()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].mod.After(out[j].mod) })
	return out, nil
}

// prune removes threads idle past maxAge and the oldest past maxN, and
// temporary files a crash left behind; keep is never removed.
func (s *Store) prune(keep string) {
	files, err := s.files()
	if err != nil {
		return
	}
	kept := 0
	for _, f := range files {
		if f.id == keep {
			kept++
			continue
		}
		if kept >= s.maxN || time.Since(f.mod) > s.maxAge {
			// A thread in use by a turn (its lock held) stays.
			if s.removeLocked(f.id) {
				continue
			}
		}
		kept++
	}
	// Lock files of threads that are gone (a deleted one whose lock file
	// was open elsewhere, a new thread whose first ask failed).
	locks, _ := filepath.Glob(filepath.Join(s.dir, "*.lock"))
	for _, l := range locks {
		id := strings.TrimSuffix(filepath.Base(l), ".lock")
		if !idRE.MatchString(id) {
			continue
		}
		if _, err := os.Stat(filepath.Join(s.dir, id+".json")); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if info, err := os.Stat(l); err == nil && time.Since(info.ModTime()) > time.Hour {
			s.removeLocked(id)
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(s.dir, ".tmp-*")); len(tmps) > 0 {
		for _, t := range tmps {
			if info, err := os.Stat(t); err == nil && time.Since(info.ModTime()) > time.Minute {
				os.Remove(t)
			}
		}
	}
}
