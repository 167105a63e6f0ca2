package index

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
)

// batchDocs is the number of documents per bleve batch during a Sync.
// A first build of GOROOT/src (BenchmarkColdSync, two runs each,
// alternated): 1,000 10.8-11.1 s at 436-467 MB peak RSS; 2,000 9.5-10.0 s
// at 487 MB (fewer segments to merge); 4,000 10.0-10.5 s at 694-698 MB.
const batchDocs = 2000

// freeAfter: after a sync that indexed more files than this, the stem
// cache is emptied (see stems.reset).
const freeAfter = 1000

// Sync walks the roots and brings the index up to date. It runs on the
// writer goroutine; edits queued meanwhile are applied at its end.
func (ix *Index) Sync(ctx context.Context) (SyncStats, error) {
	var stats SyncStats
	var err error
	ix.mu.Lock()
	ix.seq++
	ix.mu.Unlock()
	if rerr := ix.run(ctx, func() { stats, err = ix.sync(ctx) }); rerr != nil {
		return stats, rerr
	}
	return stats, err
}

// result is one file examined by a sync worker.
type result struct {
	r    *root
	rel  string
	old  *fileEntry
	e    *fileEntry
	docs []*document.Document
	same bool // content unchanged: e is old with a new mtime
}

// publishEvery is how often a first build publishes the files read so
// far: Files, Read, Grep and Symbols answer from them, and Search from
// those whose batch is written, long before the build ends (GOROOT/src:
// 10 s; a tree of 27,000 files: 45 s).
var publishEvery = time.Second

// publishEarly publishes, every publishEvery until stop is called, a
// generation holding the files read so far (files, guarded by mu), when
// the sync started from an empty index (first): then every document bleve
// holds is of a file in files, with the same chunks. A later sync does
// not: a changed file's new entry would describe chunks that bleve has
// only in their old form until its batch is written. stop returns once no
// publish is in flight, so that the sync's own publish comes last.
func (ix *Index) publishEarly(first bool, cur *state, mu *sync.Mutex, files map[string]*fileEntry) (stop func()) {
	if !first {
		return func() {}
	}
	quit := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(publishEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				mu.Lock()
				early := maps.Clone(files)
				mu.Unlock()
				ix.publish(&state{gen: cur.gen, ready: cur.ready, files: early}, nil)
			}
		}
	}()
	return func() { close(quit); <-exited }
}

// reloadEntries replaces r's entries in files by those of the manifest
// just saved: the same entries, decoded together into a few large
// allocations and with their symbols kept encoded until used, instead of
// the ones a bulk load made one file at a time among its garbage, which
// keep much of the heap's pages in use. GOROOT/src, idle right after a
// first build: 115 MB of heap in use and 163-168 MB RSS before this, as
// after a restart with it (about 70 ms to read and decode the manifest).
func (ix *Index) reloadEntries(r *root, files map[string]*fileEntry) {
	if r.temp {
		return
	}
	endDecode := ix.tuner().Decode()
	m, err := loadManifest(r.cache, r.real)
	endDecode()
	if err != nil {
		return // keep the entries made by the sync
	}
	for rel, e := range m.Files {
		api := r.api(rel)
		if e.Skip != "" || files[api] == nil {
			continue
		}
		if e.lazy != nil {
			e.lazy.path, e.lazy.lang = api, e.Lang
		}
		files[api] = e
	}
}

func (ix *Index) sync(ctx context.Context) (SyncStats, error) {
	start := time.Now()
	// The command owning the process may tune the runtime for the bulk
	// load (Options.Runtime).
	stats := SyncStats{Skipped: map[string]int{}}
	endBulk := ix.tuner().BulkLoad()
	defer func() {
		if stats.Indexed > freeAfter {
			stems.reset() // see its comment
		}
		endBulk(stats.Indexed)
	}()
	ix.mu.Lock()
	cur, ov := ix.cur, ix.overlay
	ix.mu.Unlock()
	files := maps.Clone(cur.files)
	first := len(cur.files) == 0 // a first build: see publishEarly and settle
	progress := func(phase string, done, total int) {
		if ix.opts.Progress != nil {
			ix.opts.Progress(Progress{Phase: phase, Done: done, Total: total})
		}
	}

	// Walk every root; keep what size and mtime vouch for.
	// suspect is read from r.suspect here, on the walking goroutine:
	// the readers below must not read r.suspect, which the submitters
	// change (purge) under mu.
	type job struct {
		r *root
		walkEntry
		old     *fileEntry
		suspect bool
	}
	var todo []job
	cacheDirs := map[string]bool{}
	for _, r := range ix.roots {
		cacheDirs[r.cache] = true
	}
	progress("walk", 0, 0)
	for _, r := range ix.roots {
		if r.buffersOnly != "" {
			continue // not walked: its open buffers are indexed as edits
		}
		r.ign.reset()
		w := &walker{root: r, maxBytes: ix.opts.MaxFileBytes, includeVendor: ix.opts.IncludeVendor,
			skipDirs: cacheDirs, skipped: stats.Skipped, maxFiles: ix.opts.MaxFiles, maxTotal: ix.opts.MaxTotalBytes}
		if err := w.walk(ctx); err != nil {
			return stats, fmt.Errorf("index: walking %s: %w", r.abs, err)
		}
		stats.IgnoreNotes = append(stats.IgnoreNotes, w.ignoreNotes()...)
		seen := make(map[string]bool, len(w.files))
		for _, f := range w.files {
			seen[f.rel] = true
			api := r.api(f.rel)
			old := files[api]
			if old == nil {
				old = r.skipped[f.rel]
			}
			_, open := ov[api]
			suspect := r.suspect[f.rel]
			if old != nil && !open && !suspect && old.Size == f.size && old.MTime == f.mtime {
				if old.Skip != "" {
					stats.Skipped[old.Skip]++ // still skipped, not "unchanged"
				} else {
					stats.Unchanged++
				}
				continue
			}
			todo = append(todo, job{r, f, old, suspect})
		}
		// Removed files, and files in flight at a crash that are gone.
		batch := r.bi.NewBatch()
		for rel := range r.suspect {
			if !seen[rel] {
				ix.purge(r, rel, nil, 0, batch)
			}
		}
		for rel := range r.skipped {
			if !seen[rel] {
				delete(r.skipped, rel)
				r.dirty = true
			}
		}
		var gone []string
		for api, e := range files {
			rr, rel := ix.rootOf(api)
			if rr != r || seen[rel] {
				continue
			}
			if _, open := ov[api]; open {
				continue // an unsaved buffer keeps it
			}
			for n := range e.chunkCount() {
				batch.Delete(docID(rel, n))
			}
			delete(files, api)
			gone = append(gone, rel)
			stats.Removed++
			r.dirty = true
		}
		if batch.Size() > 0 {
			r.writeJournal(gone, ix.log)
			if err := ix.persist.run(r.bi, batch); err != nil {
				return stats, fmt.Errorf("index: removing deleted files: %w", err)
			}
		}
	}

	// Read, hash and chunk what changed, in parallel; two goroutines
	// submit batches (bleve analyses a batch's documents in parallel and
	// builds its segment on the submitting goroutine; its merger runs
	// beside them). A first build goes the same way: scorch's offline
	// builder, used before, built segments one at a time and merged them
	// all at the end, alone: GOROOT/src 12.0-13.0 s against 9.2-10.5 s
	// with batches of 1,000 (peak RSS 345-355 against 409-476 MB); a tree
	// of 27,034 files 46.4 s / 921 MB against 42.6 s / 809 MB. And
	// batches are searchable as they are written.
	total := len(todo)
	progress("index", 0, total)
	jobs := make(chan job)
	results := make(chan result, 64)
	var done atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res := result{r: j.r, rel: j.rel, old: j.old}
				api := j.r.api(j.rel)
				if content, open := ov[api]; open {
					res.e, res.docs = ix.prepare(j.r, j.rel, content, int64(len(content)), 0, false)
				} else if data, _, err := readCapped(j.r.abs+"/"+j.rel, ix.opts.MaxFileBytes); err != nil {
					res.e = &fileEntry{Skip: skipReason(err)}
					if res.e.Skip != "unreadable" {
						// Refused for what it is: trust size and mtime
						// next time, as for any skipped file.
						res.e.Size, res.e.MTime = j.size, j.mtime
					}
					if os.IsNotExist(err) {
						res.e = nil // vanished between walk and read
					}
				} else {
					res.e, res.docs = ix.prepare(j.r, j.rel, data, j.size, j.mtime, false)
					if j.old != nil && res.e.Hash == j.old.Hash && res.e.Skip == j.old.Skip && !j.suspect {
						// Touched, not changed: keep the chunks, learn the mtime.
						e := *j.old
						e.Size, e.MTime = j.size, j.mtime
						res.e, res.docs, res.old, res.same = &e, nil, nil, true
					}
				}
				results <- res
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var mu sync.Mutex // guards files, stats, r.skipped, r.suspect below
	stopEarly := ix.publishEarly(first, cur, &mu, files)
	var bwg sync.WaitGroup
	var batchErr error
	for i := 0; i < 2; i++ {
		bwg.Add(1)
		go func() {
			defer bwg.Done()
			batches := map[*root]*bleve.Batch{}
			rels := map[*root][]string{}
			ndocs := map[*root]int{}
			flush := func(r *root) {
				b := batches[r]
				if b == nil || b.Size() == 0 {
					return
				}
				mu.Lock()
				r.writeJournal(rels[r], ix.log)
				mu.Unlock()
				if err := ix.persist.run(r.bi, b); err != nil {
					mu.Lock()
					batchErr = err
					mu.Unlock()
				}
				batches[r], rels[r], ndocs[r] = nil, nil, 0
			}
			for res := range results {
				n := done.Add(1)
				if n%256 == 0 {
					progress("index", int(n), total)
				}
				r := res.r
				api := r.api(res.rel)
				mu.Lock()
				r.dirty = true
				if res.old != nil || r.suspect[res.rel] {
					b := batches[r]
					if b == nil {
						b = r.bi.NewBatch()
						batches[r] = b
					}
					ix.purge(r, res.rel, res.old, len(res.docs), b)
					rels[r] = append(rels[r], res.rel)
				}
				delete(files, api)
				delete(r.skipped, res.rel)
				switch {
				case res.e == nil:
					stats.Skipped["vanished"]++
				case res.e.Skip != "":
					r.skipped[res.rel] = res.e
					stats.Skipped[res.e.Skip]++
				case res.same:
					files[api] = res.e // unchanged content
					stats.Unchanged++
				default:
					files[api] = res.e
					stats.Indexed++
					stats.Chunks += len(res.docs)
				}
				mu.Unlock()
				if len(res.docs) == 0 {
					continue
				}
				b := batches[r]
				if b == nil {
					b = r.bi.NewBatch()
					batches[r] = b
				}
				for _, d := range res.docs {
					b.IndexAdvanced(d)
				}
				rels[r] = append(rels[r], res.rel)
				ndocs[r] += len(res.docs)
				if ndocs[r] >= batchDocs {
					flush(r)
				}
			}
			for r := range batches {
				flush(r)
			}
		}()
	}
	bwg.Wait()
	stopEarly()
	if err := ctx.Err(); err != nil {
		// What was written is journaled; keep what is known.
		ix.publish(&state{gen: cur.gen, ready: cur.ready, files: files}, nil)
		return stats, fmt.Errorf("index: sync interrupted: %w", err)
	}
	if batchErr != nil {
		return stats, fmt.Errorf("index: writing to bleve: %w", batchErr)
	}

	// Make it durable, then record it.
	if err := ix.persist.wait(); err != nil {
		return stats, fmt.Errorf("index: persisting: %w", err)
	}
	if first {
		// A first build leaves many small segments whose merges would
		// otherwise run after it, beside the first edits and searches
		// (or at the next start, when askls index exits): run them now.
		for _, r := range ix.roots {
			if err := settle(ctx, r.bi); err != nil {
				ix.log.Warn("index: merging the first build's segments", "err", err)
			}
		}
	}
	for _, r := range ix.roots {
		if err := ix.verifyRoot(r, files); err != nil {
			return stats, err
		}
	}
	st := &state{ready: true, files: files}
	for _, r := range ix.roots {
		writes := r.dirty // saveRoot writes only a changed root's manifest
		if err := ix.saveRoot(r, st); err != nil {
			ix.log.Warn("index: cannot save the manifest; the next start re-indexes", "err", err)
		} else if writes && stats.Indexed > freeAfter {
			ix.reloadEntries(r, files)
		}
	}
	pend, gen, ov2, _ := ix.takePending()
	ix.applyChanges(files, pend, ov2)
	st.gen = gen
	stats.Files = len(files)
	stats.Duration = time.Since(start)
	ix.publish(st, nil)
	progress("done", total, total)
	return stats, nil
}

// verifyRoot checks, after a sync, that bleve holds one document per chunk
// of r's files: an index that cannot answer is an error, never a success.
// The manifest is removed so that the next start rebuilds.
func (ix *Index) verifyRoot(r *root, files map[string]*fileEntry) error {
	if r.buffersOnly != "" {
		return nil
	}
	want := uint64(0)
	for api, e := range files {
		if rr, _ := ix.rootOf(api); rr == r {
			want += uint64(e.chunkCount())
		}
	}
	got, err := r.bi.DocCount()
	if err == nil && got == want {
		return nil
	}
	os.Remove(filepath.Join(r.cache, manifestFile))
	r.dirty = false // not saved over: the next start rebuilds
	if err != nil {
		return fmt.Errorf("index: %s: bleve cannot count its documents (%w); the next start rebuilds the index", r.abs, err)
	}
	return fmt.Errorf("index: %s: bleve holds %d documents where the index lists %d chunks; the next start rebuilds the index (cache %s)", r.abs, got, want, r.cache)
}
