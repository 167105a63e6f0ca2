package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/askls/askls/index/secret"
)

// Root is one workspace root as the walk reads it.
type Root struct {
	Abs    string   // absolute and cleaned, as given
	Real   string   // Abs with symlinks resolved
	Ignore *Ignorer // its ignore rules
}

// Options bound a walk.
type Options struct {
	MaxFileBytes  int64           // a larger file is skipped ("too large"); <= 0: no limit
	IncludeVendor bool            // walk vendor/ and third_party/
	SkipDirs      map[string]bool // absolute folders never entered (the index's caches)
	// MaxFiles and MaxTotalBytes are the walk's budget (<= 0: none): a
	// walk that finds more files, or more bytes in them, stops with an
	// error wrapping ErrOverBudget.
	MaxFiles      int
	MaxTotalBytes int64
	// Skipped, when set, receives the count of what was left out, by
	// reason ("binary", "too large", "secret", "symlink out of root", ...);
	// else Result.Skipped is a new map.
	Skipped map[string]int
}

// Result is what a walk found.
type Result struct {
	// Batches are the files found, a batch per folder, in no set order
	// (not joined into one slice: on a kernel tree that is 2.5 MB more
	// memory touched for the first time; see Files).
	Batches [][]File
	Skipped map[string]int // Options.Skipped, or a new map
	// Notes explain a walk that ignore rules emptied or nearly emptied
	// (see ignoreNotes); usually none.
	Notes []string
}

// ErrOverBudget: the root holds more than the walk's budget.
var ErrOverBudget = errors.New("the workspace is larger than the walk's budget")

// Walk lists the files of root that may enter the index: the ignore
// rules, the folders never walked, vendored folders, secret names,
// binaries known by name and the size limit applied. It reads no file's
// content. Folders are listed on one goroutine per core.
func Walk(ctx context.Context, root Root, o Options) (Result, error) {
	w := &walker{root: root, maxBytes: o.MaxFileBytes, includeVendor: o.IncludeVendor, skipDirs: o.SkipDirs,
		skipped: o.Skipped, maxFiles: o.MaxFiles, maxTotal: o.MaxTotalBytes}
	if w.skipped == nil {
		w.skipped = map[string]int{}
	}
	w.mounts = specialMounts(root.Real)
	if err := w.walk(ctx); err != nil {
		return Result{Skipped: w.skipped}, err
	}
	return Result{Batches: w.batches, Skipped: w.skipped, Notes: w.ignoreNotes()}, nil
}

// File is one candidate file found by the walk.
type File struct {
	Rel   string // slash path relative to the root
	Size  int64
	MTime int64 // UnixNano
}

// walker lists the files of one root that may enter the index. Folders
// are listed on one goroutine per core (most of a walk is the system
// calls that list folders and stat files): files come in no set order.
type walker struct {
	root          Root
	maxBytes      int64
	includeVendor bool
	skipDirs      map[string]bool // absolute folders never entered (the cache)

	sem     chan struct{} // a slot per goroutine listing folders, one per core
	spawned atomic.Int32  // goroutines started (enter)
	wg      sync.WaitGroup
	mu      sync.Mutex // guards what follows while the walk runs
	err     error      // the first error: ends the walk
	batches [][]File   // the files found, a batch per folder (Result.Files joins them)
	nFiles  int        // in batches
	skipped map[string]int

	// What the ignore rules kept out: per rule, the files and folders it
	// excluded (a folder counts once; it is not entered), and how many of
	// them sit directly under the root, out of rootEntries.
	excluded    map[*rule]*exclusion
	rootEntries int

	// mounts are the special file systems mounted under the root, by
	// path (specialMounts); nil: each folder is asked.
	mounts map[string]string

	// The budget (Options.MaxFiles, MaxTotalBytes; <= 0: none) and what
	// the walk has taken of it.
	maxFiles   int
	maxTotal   int64
	totalBytes int64
}

// skip counts a file or folder left out; call with w.mu held.
func (w *walker) skip(reason string) { w.skipped[reason]++ }

// locked runs f with w.mu held.
func (w *walker) locked(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
}

// exclusion counts what one ignore rule kept out of a walk.
type exclusion struct {
	r        *rule
	entries  int
	topLevel int
}

// ignoredBy asks the root's ignore rules about child and counts what
// they exclude.
func (w *walker) ignoredBy(chain []ruleSet, child string, isDir, top bool) bool {
	r := decide(chain, child, isDir)
	if r == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.excluded == nil {
		w.excluded = map[*rule]*exclusion{}
	}
	ex := w.excluded[r]
	if ex == nil {
		ex = &exclusion{r: r}
		w.excluded[r] = ex
	}
	ex.entries++
	if top {
		ex.topLevel++
	}
	return true
}

func (w *walker) walk(ctx context.Context) error {
	// The caller only waits: the root takes a slot like any folder. (A
	// slot fewer, the root's goroutine held the only one and walked the
	// whole tree alone.)
	w.sem = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	w.enter(ctx, "", w.root.Ignore.chain(""))
	w.wg.Wait()
	return w.err
}

// enter walks folder rel on another goroutine when one is free, else on
// this one.
func (w *walker) enter(ctx context.Context, rel string, chain []ruleSet) {
	select {
	case w.sem <- struct{}{}:
		w.spawned.Add(1)
		w.wg.Add(1)
		go func() {
			defer func() { <-w.sem; w.wg.Done() }()
			w.dirOrStop(ctx, rel, chain)
		}()
	default:
		w.dirOrStop(ctx, rel, chain)
	}
}

// dirOrStop walks folder rel unless the walk has ended, and records the
// error that ends it.
func (w *walker) dirOrStop(ctx context.Context, rel string, chain []ruleSet) {
	w.mu.Lock()
	stopped := w.err != nil
	w.mu.Unlock()
	if stopped {
		return
	}
	if err := w.dir(ctx, rel, chain); err != nil {
		w.locked(func() {
			if w.err == nil {
				w.err = err
			}
		})
	}
}

// overBudget says, once the walk has gone over its budget, by how much
// and what to do. Call it with w.mu held.
func (w *walker) overBudget() error {
	if w.maxFiles > 0 && w.nFiles > w.maxFiles {
		return fmt.Errorf("%w: %s has more than %d files to index (the file budget); open a project folder, add ignore rules (.asklsignore), or raise the budget (--max-files)",
			ErrOverBudget, w.root.Abs, w.maxFiles)
	}
	if w.maxTotal > 0 && w.totalBytes > w.maxTotal {
		return fmt.Errorf("%w: %s has more than %d bytes to index (the byte budget); open a project folder, add ignore rules (.asklsignore), or raise the budget (--max-total-bytes)",
			ErrOverBudget, w.root.Abs, w.maxTotal)
	}
	return nil
}

// dir walks folder rel, whose entries the ignore rules of chain (its
// parent's, with its own ignore files added here) decide; its sub-folders
// are entered as goroutines come free (enter).
func (w *walker) dir(ctx context.Context, rel string, chain []ruleSet) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	abs := filepath.Join(w.root.Abs, filepath.FromSlash(rel))
	if w.skipDirs[abs] {
		return nil
	}
	f, err := openFolder(abs)
	if err != nil {
		if rel == "" {
			return err
		}
		w.locked(func() { w.skip("unreadable folder") })
		return nil
	}
	subdirs, chain, err := w.takeFolder(f, rel, chain)
	f.close() // before its sub-folders: one open folder per goroutine
	if err != nil {
		return err
	}
	for _, sub := range subdirs {
		w.enter(ctx, sub, chain)
	}
	return nil
}

// takeFolder lists the open folder f (rel), takes its files, and returns
// its sub-folders to walk and the chain of rules that decides their
// entries.
func (w *walker) takeFolder(f *folder, rel string, chain []ruleSet) ([]string, []ruleSet, error) {
	if rel != "" && w.special(f, rel) != "" {
		w.locked(func() { w.skip("special file system") })
		return nil, nil, nil // /proc, /sys, ... under a root that is "/"
	}
	listing := listings.Get().(*[]dirent)
	defer listings.Put(listing)
	entries, err := f.list((*listing)[:0])
	if err != nil {
		if rel == "" {
			return nil, nil, err
		}
		w.locked(func() { w.skip("unreadable folder") })
		return nil, nil, nil
	}
	if rel != "" {
		// Its own ignore files, read only when the listing holds them.
		chain = w.root.Ignore.subChain(chain, rel, listedIgnoreFiles(entries))
	}
	subdirs, err := w.entries(f, rel, entries, chain)
	clear(entries) // the names, for the collector
	*listing = entries[:0]
	return subdirs, chain, err
}

// special names the special file system folder f (rel) is on, or "".
func (w *walker) special(f *folder, rel string) string {
	if w.mounts == nil {
		return f.special()
	}
	return w.mounts[rel]
}

// listings are the slices folders are listed into, reused: a kernel
// tree has 5,000 folders, and memory touched for the first time is not
// cheap.
var listings = sync.Pool{New: func() any { return new([]dirent) }}

// entries takes the files of folder f (rel) that may enter the index,
// and returns its sub-folders to walk.
func (w *walker) entries(f *folder, rel string, entries []dirent, chain []ruleSet) ([]string, error) {
	top := rel == ""
	var subdirs []string
	files := make([]File, 0, len(entries))
	var bytes int64
	for _, e := range entries {
		child := e.name
		if !top {
			child = rel + "/" + e.name
		}
		typ := e.typ
		var known *fileStat // stat'ed already: the listing gave no type
		if typ == typeUnknown {
			st, err := f.stat(e.name)
			if err != nil {
				w.locked(func() { w.skip(statFailure(err)) })
				continue
			}
			typ, known = st.typ, &st
		}
		if top && !(typ.IsDir() && alwaysSkipped[e.name]) {
			w.locked(func() { w.rootEntries++ })
		}
		switch {
		case typ&fs.ModeSymlink != 0:
			if err := w.symlink(chain, child, top); err != nil {
				return nil, err
			}
		case typ.IsDir():
			if alwaysSkipped[e.name] || (!w.includeVendor && vendorFolders[e.name]) || w.ignoredBy(chain, child, true, top) {
				continue
			}
			subdirs = append(subdirs, child)
		case typ == 0: // a regular file; not sockets, devices, pipes
			if w.ignoredBy(chain, child, false, top) {
				continue
			}
			st, err := f.statOnce(e.name, known)
			if err != nil || st.typ != 0 {
				w.locked(func() { w.skip(statFailure(err)) })
				continue
			}
			if reason := w.skipReason(child, st.size); reason != "" {
				w.locked(func() { w.skip(reason) })
				continue
			}
			files = append(files, File{Rel: child, Size: st.size, MTime: st.mtime})
			bytes += st.size
		}
	}
	return subdirs, w.add(files, bytes)
}

// statFailure is the skip reason of a listed entry whose stat failed
// (err), or that is no longer a regular file (err nil): "vanished" when
// it is gone or changed, "unreadable" when the system refused (a folder
// that may be listed but not searched).
func statFailure(err error) string {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return "vanished"
	}
	return "unreadable"
}

// skipReason says why a regular file is left out by its name or its
// size, or "".
func (w *walker) skipReason(rel string, size int64) string {
	switch {
	case secret.IsName(rel):
		return "secret"
	case binaryExt[strings.ToLower(path.Ext(rel))]:
		return "binary"
	case w.maxBytes > 0 && size > w.maxBytes:
		return "too large"
	}
	return ""
}

// add takes the files of one folder (of bytes in all), and returns an
// error once the walk is over its budget.
func (w *walker) add(files []File, bytes int64) error {
	if len(files) == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.batches = append(w.batches, files)
	w.nFiles += len(files)
	w.totalBytes += bytes
	return w.overBudget()
}

// Len is the number of files found.
func (r Result) Len() int {
	n := 0
	for _, b := range r.Batches {
		n += len(b)
	}
	return n
}

// Files are the files found, in one slice (a copy).
func (r Result) Files() []File {
	files := make([]File, 0, r.Len())
	for _, b := range r.Batches {
		files = append(files, b...)
	}
	return files
}

// symlink keeps a link to a file inside the root; links that leave the
// root, point at folders (cycles, duplicates) or at nothing are skipped.
// It returns an error once the walk is over its budget.
func (w *walker) symlink(chain []ruleSet, rel string, top bool) error {
	if w.ignoredBy(chain, rel, false, top) {
		return nil
	}
	reason := ""
	target, err := filepath.EvalSymlinks(filepath.Join(w.root.Abs, filepath.FromSlash(rel)))
	var info fs.FileInfo
	switch {
	case err != nil:
		reason = "broken symlink"
	case !Within(w.root.Real, target):
		reason = "symlink out of root"
	case secret.IsName(filepath.ToSlash(target)):
		reason = "secret" // an ordinary name for a secret file
	default:
		if info, err = os.Stat(target); err != nil {
			reason = "broken symlink"
		} else if info.IsDir() {
			reason = "symlink to folder"
		}
	}
	if reason != "" {
		w.locked(func() { w.skip(reason) })
		return nil
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	if reason := w.skipReason(rel, info.Size()); reason != "" {
		w.locked(func() { w.skip(reason) })
		return nil
	}
	return w.add([]File{{Rel: rel, Size: info.Size(), MTime: info.ModTime().UnixNano()}}, info.Size())
}

// within reports whether p is dir or below it (both cleaned absolute paths).
func Within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
