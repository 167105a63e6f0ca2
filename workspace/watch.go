package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"

	"github.com/askls/askls/index"
)

// maxWatches caps the folders watched: the folders that hold indexed
// files, and new folders as they appear.
const maxWatches = 50000

// watcher tells the index about files that change on disk, the way an
// editor's didChangeWatchedFiles does for the language server (Options.Watch).
type watcher struct {
	fw   *fsnotify.Watcher
	ix   *index.Index
	log  *slog.Logger
	done chan struct{}

	mu      sync.Mutex
	watched map[string]bool
}

// watch starts the watcher of ix when the options ask for one; a failure
// is logged, and the index then follows the files only when reopened.
func (w *Workspace) watch(ctx context.Context, ix *index.Index, roots []string) {
	if !w.opts.Watch {
		return
	}
	wt, err := watchFiles(ctx, ix, roots, w.log)
	if err != nil {
		w.log.Warn("not watching files; answers follow the files only after a restart", "err", err)
		return
	}
	w.mu.Lock()
	w.watcher = wt
	w.mu.Unlock()
}

// watchFiles watches the roots and every folder that holds an indexed file.
func watchFiles(ctx context.Context, ix *index.Index, roots []string, log *slog.Logger) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("file watcher: %w", err)
	}
	w := &watcher{fw: fw, ix: ix, log: log, done: make(chan struct{}), watched: map[string]bool{}}
	dirs := map[string]bool{}
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			dirs[abs] = true
		}
	}
	files, _ := ix.Snapshot().Files("**")
	for _, f := range files {
		abs, err := ix.Abs(path.Dir(f) + "/x")
		if err == nil {
			dirs[filepath.Dir(abs)] = true
		}
	}
	for d := range dirs {
		w.add(d)
	}
	go w.loop(ctx)
	return w, nil
}

func (w *watcher) add(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watched[dir] || len(w.watched) >= maxWatches {
		return
	}
	if err := w.fw.Add(dir); err != nil {
		w.log.Debug("cannot watch", "dir", dir, "err", err)
		return
	}
	w.watched[dir] = true
}

func (w *watcher) loop(ctx context.Context) {
	defer close(w.done)
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.log.Warn("file watcher", "err", err)
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.event(ev)
		}
	}
}

func (w *watcher) event(ev fsnotify.Event) {
	if filepath.Base(ev.Name) == ".git" {
		return
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			// A new folder: watch it and index what is already in it.
			_ = filepath.WalkDir(ev.Name, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if d.Name() == ".git" {
						return filepath.SkipDir
					}
					w.add(p)
					return nil
				}
				w.ix.Changed(p)
				return nil
			})
			return
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.forgetDir(ev.Name)
	}
	w.ix.Changed(ev.Name)
}

// forgetDir tells the index about every file it holds under a folder
// that was removed or renamed away (the folder's own event is the only
// one that comes).
func (w *watcher) forgetDir(dir string) {
	w.mu.Lock()
	was := w.watched[dir]
	delete(w.watched, dir)
	w.mu.Unlock()
	if !was {
		return
	}
	rel, ok := w.ix.Rel(dir)
	if !ok {
		return
	}
	files, _ := w.ix.Snapshot().Files(rel + "/**")
	for _, f := range files {
		w.ix.Changed(f)
	}
}

func (w *watcher) close() {
	_ = w.fw.Close()
	<-w.done
}
