package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/blevesearch/bleve/v2"
	"github.com/gofrs/flock"
)

// Defaults for Options.
const (
	defaultMaxFileBytes = 1 << 20
	// The walk's budget: more files than the largest real repositories
	// (the Linux kernel: 90,000; GOROOT: 15,000) hold outside their
	// vendored folders, far fewer than a home folder or a disk.
	defaultMaxFiles      = 500_000
	defaultMaxTotalBytes = 8 << 30
	defaultDebounce      = 50 * time.Millisecond
)

// root is one workspace root and its persisted index.
type root struct {
	name  string // prefix of its paths in the API; "" with one root
	abs   string // absolute, cleaned, as given
	real  string // abs with symlinks resolved
	cache string // this root's cache folder
	temp  bool   // cache is a temporary folder, removed at Close
	lock  *flock.Flock
	bi    bleve.Index // set by Open, never replaced: safe to read from any goroutine
	ign   *walk.Ignorer
	// buffersOnly, when set, says why the root is not walked nor read
	// from disk (BroadRoot): only its open buffers are indexed and read.
	buffersOnly string

	// Owned by the writer goroutine.
	journal       *os.File
	journalFailed bool                    // a journal write failed (logged once)
	dirty         bool                    // the manifest on disk is out of date
	skipped       map[string]*store.Entry // seen but not indexed, by rel path
	suspect       map[string]bool         // in flight at a crash: purge before indexing
	symw          store.SymWriter         // the symbols file (index/store/symbols.go)
	// openChecked: store.Load checked bleve's document count against the
	// manifest, and the first sync's check (verifyRoot) may rely on it
	// when it wrote nothing.
	openChecked bool
}

// state is one published generation: immutable.
type state struct {
	gen   uint64
	ready bool
	files map[string]*store.Entry // indexed files by API path

	tab store.SymbolTable // the symbol table, set by publish

	// sums, when set, are the chunks and symbols of files, counted as
	// Open made the file map and handed on by a sync that changed
	// nothing (counts then makes no pass over the entries).
	sums *fileSums

	once  sync.Once
	paths []string // sorted keys of files

	classes sync.Map // API path -> corpus.Class, filled by Snapshot.classOf
	traits  sync.Map // root name -> rootTraits, filled by Snapshot.traits
}

func (st *state) index() {
	st.once.Do(func() {
		st.paths = make([]string, 0, len(st.files))
		for p := range st.files {
			st.paths = append(st.paths, p)
		}
		sort.Strings(st.paths)
	})
}

// fileSums are the chunks and symbols of a file map.
type fileSums struct{ chunks, symbols int }

// counts are the generation's chunks and symbols: its sums, else one
// pass over the file map, without sorting its paths (index), which Stats
// does not need (the kernel's 78,000: 40 ms of a warm `askls index`).
func (st *state) counts() (chunks, symbols int) {
	if st.sums != nil {
		return st.sums.chunks, st.sums.symbols
	}
	for _, e := range st.files {
		chunks += e.ChunkCount()
		symbols += e.SymbolCount()
	}
	return chunks, symbols
}

// Index is a persisted, incrementally updated index of workspace roots.
type Index struct {
	opts Options
	rank Ranking // Search's parameters, set by Open
	// projectNames are the names of the projects the roots hold
	// (corpus.ProjectName): a query's word that names one is no evidence.
	projectNames []string
	log          *slog.Logger
	roots        []*root
	persist      store.Persister
	pre          atomic.Pointer[prewalk] // the first sync's walk, started by Open (WalkAtOpen)

	mu      sync.Mutex
	cur     *state
	overlay map[string][]byte // open buffers by API path; replaced, never mutated
	bufSums sync.Map          // API path -> bufSum of its open buffer (overlay.go)
	pending map[string]bool   // paths for the writer
	seq     uint64            // last generation handed out
	pubCh   chan struct{}     // closed at each publish

	jobs        chan func()
	kick        chan struct{}
	done        chan struct{}
	writerDone  chan struct{}
	spare       spareFiles // the writer's copy of cur.files for the next edit (writer_spare.go)
	closeOnce   sync.Once
	notices     []string  // set by Open
	damagedOnce sync.Once // Options.OnDamaged is called once (verify.go)

	spans spanCache // chunk texts searches read (spancache.go)
	idf   idfCache  // the feedback terms' weights (idfcache.go)

	// oversized stands for every open buffer over MaxFileBytes in the
	// overlay (writer.go: oversizedBuffer), made at the first one.
	oversized     []byte
	oversizedOnce sync.Once
}

// Open opens (or creates) the persisted index for opts.Roots. It does not
// walk the roots: call Sync. A persisted index that cannot be trusted (a
// crash in the middle of a large write, an unreadable manifest, another
// askls version) is rebuilt, with a log line saying why.
func Open(ctx context.Context, opts Options) (*Index, error) {
	if len(opts.Roots) == 0 {
		return nil, errors.New("index: no root given")
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = defaultMaxFileBytes
	}
	if opts.Debounce == 0 {
		opts.Debounce = defaultDebounce
	}
	if opts.MaxFiles == 0 {
		opts.MaxFiles = defaultMaxFiles
	}
	if opts.MaxTotalBytes == 0 {
		opts.MaxTotalBytes = defaultMaxTotalBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cacheBase, err := CacheDir(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	ix := &Index{
		opts:       opts,
		log:        opts.Logger,
		overlay:    map[string][]byte{},
		pending:    map[string]bool{},
		pubCh:      make(chan struct{}),
		jobs:       make(chan func()),
		kick:       make(chan struct{}, 1),
		done:       make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	ix.rank = DefaultRanking()
	if opts.Ranking != nil {
		ix.rank = *opts.Ranking
	}
	for _, dir := range opts.Roots {
		if n := corpus.ProjectName(dir); n != "" {
			ix.projectNames = append(ix.projectNames, n)
		}
	}
	names := map[string]int{}
	for _, dir := range opts.Roots {
		r, err := ix.openRoot(dir, cacheBase, len(opts.Roots) > 1, names)
		if err != nil {
			ix.closeRoots()
			return nil, err
		}
		ix.roots = append(ix.roots, r)
	}
	if opts.WalkAtOpen {
		ix.pre.Store(ix.startWalks())
	}
	ms, n := make([]*store.Manifest, len(ix.roots)), 0
	for i, r := range ix.roots {
		ms[i] = r.loadManifest(ix, ix.log, ix.tuner())
		n += len(ms[i].Files)
	}
	files, sums := openFiles(ix.roots, ms, n)
	st := &state{files: files, sums: sums}
	st.tab = store.NextSymbolTable(ix.newSymbolTable(), st.files, nil)
	ix.cur = st
	go ix.writer()
	return ix, nil
}

// openFiles is the file map of the roots' manifests ms (n entries in
// all), their skipped files set aside in their roots, and its sums,
// counted in the same pass. A lone root whose API paths are its relative
// paths hands over its manifest's map (the kernel's 78,000 entries: a
// second map of them was 3 MB of memory touched for the first time, and
// its inserts).
func openFiles(roots []*root, ms []*store.Manifest, n int) (map[string]*store.Entry, *fileSums) {
	sums := &fileSums{}
	if len(roots) == 1 && roots[0].name == "" {
		r, files := roots[0], ms[0].Files
		for rel, e := range files {
			if e.Skip != "" {
				r.skipped[rel] = e
				delete(files, rel)
				continue
			}
			e.SetPath(rel)
			sums.add(e)
		}
		return files, sums
	}
	files := make(map[string]*store.Entry, n)
	for i, r := range roots {
		for rel, e := range ms[i].Files {
			if e.Skip != "" {
				r.skipped[rel] = e
				continue
			}
			api := r.api(rel)
			e.SetPath(api)
			files[api] = e
			sums.add(e)
		}
	}
	return files, sums
}

// add counts e's chunks and symbols.
func (s *fileSums) add(e *store.Entry) {
	s.chunks += e.ChunkCount()
	s.symbols += e.SymbolCount()
}

// newSymbolTable is the empty symbol table of the roots, each kept in its
// cache folder (not a temporary one, nor that of a root read from its
// buffers only).
func (ix *Index) newSymbolTable() store.SymbolTable {
	roots := make([]store.SymRoot, len(ix.roots))
	for i, r := range ix.roots {
		if r.name != "" {
			roots[i].Prefix = r.name + "/"
		}
		if !r.temp && r.buffersOnly == "" {
			roots[i].Dir = r.cache
		}
	}
	return store.NewStoredSymbolTable(ix.tuner(), ix.log, roots)
}

// CacheDir is the cache folder, made absolute: opt when given (the
// commands pass --cache, else $ASKLS_CACHE_DIR), else the user's cache
// folder (os.UserCacheDir()/askls). The workspace resolves it once and
// hands the result to the index and the thread store.
func CacheDir(opt string) (string, error) {
	dir := opt
	if dir == "" {
		uc, err := os.UserCacheDir()
		if err != nil {
			uc = os.TempDir()
		}
		dir = filepath.Join(uc, "askls")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("index: cache folder: %w", err)
	}
	return dir, nil
}

func (ix *Index) openRoot(dir, cacheBase string, several bool, names map[string]int) (*root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("index: root %s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("index: root %s does not exist", dir)
		}
		return nil, fmt.Errorf("index: root %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("index: root %s is not a folder", dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("index: root %s: %w", dir, err)
	}
	if name := walk.SpecialFS(real); name != "" {
		return nil, fmt.Errorf("index: root %s is on a special file system (%s): its files are not source code", dir, name)
	}
	r := &root{abs: abs, real: real, skipped: map[string]*store.Entry{}, suspect: map[string]bool{}}
	if why := BroadRoot(real); why != "" && !ix.opts.AllowBroadRoots {
		r.buffersOnly = why
		msg := fmt.Sprintf("askls does not index %s: %s. Only its open files are searched and read; open a project folder instead, or allow it explicitly (askls --allow-broad-root).", abs, why)
		ix.notices = append(ix.notices, msg)
		ix.log.Warn("index: " + msg)
	}
	if several {
		base := filepath.Base(abs)
		names[base]++
		r.name = base
		if n := names[base]; n > 1 {
			r.name = fmt.Sprintf("%s-%d", base, n)
		}
	}
	sum := sha256.Sum256([]byte(real))
	r.cache = filepath.Join(cacheBase, filepath.Base(real)+"-"+hex.EncodeToString(sum[:6]))
	why := ""
	if r.buffersOnly != "" {
		err = nil // a few open buffers: a temporary index
	} else {
		err = os.MkdirAll(r.cache, 0o755)
		if err == nil {
			err = r.lockCache()
		}
	}
	switch {
	case r.buffersOnly != "":
		why = "only open buffers are indexed"
	case errors.Is(err, errCacheLocked):
		why = ix.useSecondCache(r)
	case err != nil:
		why = unwritableCache(err)
	}
	if why != "" {
		// Work in a private index rather than not at all.
		tmp, terr := newTempIndex(r, ix.log)
		if terr != nil {
			return nil, fmt.Errorf("index: %s, and no temporary folder: %w", why, terr)
		}
		if r.buffersOnly == "" {
			ix.log.Warn("index: "+why+"; using a temporary index for this run", "cache", r.cache, "temporary", tmp)
		}
		r.cache, r.temp = tmp, true
	}
	excl := []string{}
	excl = append(excl, ix.opts.Exclude...)
	r.ign = walk.NewIgnorer(abs, excl, ix.opts.ConfigDir)
	return r, nil
}

// BroadRoot says why dir should not be indexed as a workspace root
// unless the user asks for it (Options.AllowBroadRoots), or "": the file
// system's root and the user's home folder hold caches, downloads and
// credentials of many projects, and can exhaust memory and time. gopls
// refuses the home folder for the same reasons.
func BroadRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if filepath.Dir(abs) == abs {
		return "it is the root of the file system"
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	if abs == filepath.Clean(home) {
		return "it is your home folder, which holds the files of many projects, caches and credentials"
	}
	return ""
}

// Notices are what the user should know about the roots, from Open.
func (ix *Index) Notices() []string { return ix.notices }

// unwritableCache says why a cache folder cannot be used, and what to do.
func unwritableCache(err error) string {
	return fmt.Sprintf("the cache folder cannot be written (%v): set ASKLS_CACHE_DIR or --cache to keep the index between runs", err)
}

// persistedCopies is how many persisted indexes a root may have: the
// first, then "-2", "-3", "-4" for asklses that run while the ones before
// are in use (the editor's server, an MCP server, the command line).
const persistedCopies = 4

// useSecondCache moves r to another persisted index of its own (r.cache +
// "-2", "-3", … up to persistedCopies) when another askls holds the first:
// built once and incremental afterwards, instead of a temporary index
// rebuilt by every run. It returns why none can be used, or "".
func (ix *Index) useSecondCache(r *root) string {
	primary := r.cache
	for n := 2; n <= persistedCopies; n++ {
		r.cache = fmt.Sprintf("%s-%d", primary, n)
		err := os.MkdirAll(r.cache, 0o755)
		if err == nil {
			err = r.lockCache()
		}
		switch {
		case errors.Is(err, errCacheLocked):
			continue
		case err != nil:
			r.cache = primary
			return unwritableCache(err)
		}
		ix.log.Info("index: the persisted index is in use by another askls; using a second persisted index (built once, then kept up to date like the first)",
			"cache", r.cache, "in use", primary)
		return ""
	}
	r.cache = primary
	return fmt.Sprintf("the persisted index and its %d other copies are in use by other asklses", persistedCopies-1)
}

// tuner is Options.Runtime, or one that does nothing.
func (ix *Index) tuner() RuntimeTuner {
	if ix.opts.Runtime != nil {
		return ix.opts.Runtime
	}
	return noTuning{}
}

// noTuning is the RuntimeTuner of an index given none.
type noTuning struct{}

func (noTuning) BulkLoad() func(int)  { return func(int) {} }
func (noTuning) Decode() func()       { return func() {} }
func (noTuning) SymbolTableBuilt(int) {}

// errCacheLocked: another process holds the cache folder's lock.
var errCacheLocked = errors.New("locked by another askls")

// lockCache takes an exclusive lock on the root's cache folder without
// waiting (flock on Unix, LockFileEx on Windows); the lock lives as long as
// the process or until Close.
func (r *root) lockCache() error {
	l := flock.New(filepath.Join(r.cache, "lock"))
	ok, err := l.TryLock()
	if err != nil {
		return fmt.Errorf("index: locking %s: %w", r.cache, err)
	}
	if !ok {
		return fmt.Errorf("index at %s: %w", r.cache, errCacheLocked)
	}
	r.lock = l
	return nil
}

// loadManifest reads the manifest and the journal, opens bleve, and
// decides whether the persisted index can be used (store.Load), logging a
// rebuild and the files in flight at a crash. It always returns a
// manifest (empty after a rebuild).
func (r *root) loadManifest(ix *Index, log *slog.Logger, tune RuntimeTuner) *store.Manifest {
	l := store.Load(r.cache, r.real, tune.Decode)
	if l.Rebuilt != "" {
		log.Warn("index: rebuilding the index of "+r.abs+" from scratch: "+l.Rebuilt, "cache", r.cache)
	}
	if l.InMemory != nil {
		// Nothing else to try: an in-memory index keeps askls usable.
		log.Error("index: cannot create the index; keeping it in memory for this run", "err", l.InMemory)
	}
	m := l.Manifest
	r.dirty = l.Fresh
	r.bi = ix.guard(r, l.Bleve)
	if !l.Fresh {
		r.symw = store.NewSymWriter(m)
	}
	if len(l.Journal) > 0 {
		log.Info(fmt.Sprintf("index: %d files were being written when askls last stopped; re-indexing them", len(l.Journal)),
			"root", r.abs)
		r.dirty = true
		for _, rel := range l.Journal {
			delete(m.Files, rel)
			r.suspect[rel] = true
		}
	}
	r.openChecked = !r.dirty // loaded as it was saved: Load counted
	jf, err := os.OpenFile(filepath.Join(r.cache, store.JournalFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		log.Warn("index: cannot write the journal; a crash will mean a rebuild", "err", err)
	}
	r.journal = jf
	return m
}

// api is the API path of a path relative to r.
func (r *root) api(rel string) string {
	if r.name == "" {
		return rel
	}
	return r.name + "/" + rel
}

// split maps an API path to its root and relative path.
func (ix *Index) split(p string) (*root, string, bool) {
	if filepath.IsAbs(p) {
		api, ok := ix.Rel(p)
		if !ok {
			return nil, "", false
		}
		p = api
	}
	p, ok := walk.CleanRel(p)
	if !ok {
		return nil, "", false
	}
	if len(ix.roots) == 1 {
		return ix.roots[0], p, true
	}
	name, rel, found := strings.Cut(p, "/")
	if !found {
		return nil, "", false
	}
	for _, r := range ix.roots {
		if r.name == name {
			return r, rel, true
		}
	}
	return nil, "", false
}

// normalize turns a path given to the API (index path or absolute) into
// the canonical API path.
func (ix *Index) normalize(p string) (string, bool) {
	r, rel, ok := ix.split(p)
	if !ok {
		return "", false
	}
	return r.api(rel), true
}

// Rel maps an absolute filesystem path to its index path; ok is false
// outside every root.
func (ix *Index) Rel(abs string) (string, bool) {
	abs = filepath.Clean(abs)
	for _, r := range ix.roots {
		for _, base := range []string{r.abs, r.real} {
			if abs != base && walk.Within(base, abs) {
				rel, err := filepath.Rel(base, abs)
				if err != nil {
					continue
				}
				if rel, ok := walk.CleanRel(filepath.ToSlash(rel)); ok {
					return r.api(rel), true
				}
			}
		}
	}
	return "", false
}

// Abs maps an index path to an absolute filesystem path.
func (ix *Index) Abs(p string) (string, error) {
	r, rel, ok := ix.split(p)
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	return filepath.Join(r.abs, filepath.FromSlash(rel)), nil
}

// MaxFileBytes is the size limit (Options.MaxFileBytes, defaulted): a
// file or buffer over it is neither read out nor indexed, and Update
// keeps none of such a buffer.
func (ix *Index) MaxFileBytes() int64 { return ix.opts.MaxFileBytes }

// Stats describe the index as it is now.
func (ix *Index) Stats() Stats {
	ix.mu.Lock()
	st := ix.cur
	ix.mu.Unlock()
	chunks, symbols := st.counts()
	s := Stats{Files: len(st.files), Chunks: chunks, Symbols: symbols, Generation: st.gen, Ready: st.ready}
	for _, r := range ix.roots {
		s.Roots = append(s.Roots, r.abs)
		filepath.WalkDir(r.cache, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					s.DiskBytes += info.Size()
				}
			}
			return nil
		})
	}
	return s
}

// Close stops the writer, waits until every batch is on disk, saves the
// manifests and closes the indexes.
func (ix *Index) Close() error {
	var errs []error
	ix.closeOnce.Do(func() {
		if pw := ix.pre.Swap(nil); pw != nil {
			pw.stop() // no Sync took it
		}
		close(ix.done)
		<-ix.writerDone
		if err := ix.persist.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("index: persisting: %w", err))
		}
		ix.mu.Lock()
		st := ix.cur
		ix.mu.Unlock()
		st.tab.Close() // no table file written once the folders are unlocked
		for _, r := range ix.roots {
			if err := ix.saveRoot(r, st); err != nil {
				errs = append(errs, err)
			}
		}
		errs = append(errs, ix.closeRoots())
	})
	return errors.Join(errs...)
}

func (ix *Index) closeRoots() error {
	var errs []error
	for _, r := range ix.roots {
		if r.bi != nil {
			if err := r.bi.Close(); err != nil {
				errs = append(errs, fmt.Errorf("index: close %s: %w", r.abs, err))
			}
		}
		if r.journal != nil {
			r.journal.Close()
		}
		r.symw.Close()
		if r.lock != nil {
			r.lock.Unlock()
		}
		if r.temp {
			os.RemoveAll(r.cache)
		}
	}
	return errors.Join(errs...)
}

// saveRoot writes r's manifest from st and empties its journal. Call it
// only after persist.wait.
func (ix *Index) saveRoot(r *root, st *state) error {
	if r.temp || !r.dirty {
		return nil
	}
	files := map[string]*store.Entry{}
	for rel, e := range r.skipped {
		files[rel] = e
	}
	prefix := ""
	if r.name != "" {
		prefix = r.name + "/"
	}
	for p, e := range st.files {
		if rel, ok := strings.CutPrefix(p, prefix); ok {
			files[rel] = e
		}
	}
	if err := store.SaveManifest(r.cache, r.real, files, &r.symw); err != nil {
		return fmt.Errorf("index: %s: %w", r.abs, err)
	}
	if r.journal != nil {
		if err := r.journal.Truncate(0); err != nil {
			return fmt.Errorf("index: truncate journal: %w", err)
		}
	}
	r.dirty = false
	return nil
}

// rootOf returns the root an API path belongs to, and its relative path.
func (ix *Index) rootOf(api string) (*root, string) {
	if len(ix.roots) == 1 {
		return ix.roots[0], api
	}
	name, rel, _ := strings.Cut(api, "/")
	for _, r := range ix.roots {
		if r.name == name {
			return r, rel
		}
	}
	return nil, ""
}

// baseName is path.Base for API paths.
func baseName(p string) string { return path.Base(p) }
