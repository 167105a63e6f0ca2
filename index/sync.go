package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	rtrace "runtime/trace"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/words"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
)

// batchDocs is the number of documents per bleve batch during a Sync,
// while it has written fewer than batchGrowAfter documents. A first build
// of GOROOT/src (BenchmarkColdSync, two runs each, alternated): 1,000
// 10.8-11.1 s at 436-467 MB peak RSS; 2,000 9.5-10.0 s at 487 MB (fewer
// segments to merge); 4,000 10.0-10.5 s at 694-698 MB.
const batchDocs = 2000

// Past batchGrowAfter documents, a sync's batches grow in proportion to
// what it has written (batchDocs per batchGrowAfter), up to maxBatchDocs: a
// segment's cost is mostly its term dictionary, which grows far slower
// than its documents, and every segment is merged again into larger
// ones, so a large build makes fewer, larger segments. A cold build of the
// Linux tree (BenchmarkColdSync): up to 8,000 128 s wall, 239 s user CPU,
// 1.22 GB peak RSS; up to 20,000 (growing twice as fast) 213 s, 373 s,
// 1.47 GB, the heap then pressing on the bulk load's memory limit.
const (
	batchGrowAfter = 100_000
	maxBatchDocs   = 8_000
)

// batchSize is the number of documents of the next batch of a sync that
// has written written documents so far.
func batchSize(written int64) int {
	if written < batchGrowAfter {
		return batchDocs
	}
	return int(min(maxBatchDocs, batchDocs*written/batchGrowAfter))
}

// smallBuildBytes: a first build whose files to read hold fewer bytes
// than this is small (GOROOT/src: 72,246 documents from under 160 MB;
// the Go module cache of this machine, 242,477 from about 1 GB): it
// merges its segments as it goes and settles with the same plan
// (store.BuildMerger, store.Settle), while its batches still hold
// batchDocs documents (smallBuild). A larger one leaves its merges to
// scorch's steady plan and settles as before: with the small build's
// merges for its first 100,000 documents, the module cache's build took
// 4-13 % more CPU (two pairs of runs).
const smallBuildBytes = 200 << 20

// smallBuild says whether the first build s, having written written
// documents, is small (smallBuildBytes).
func (s *syncRun) smallBuild(written int64) bool {
	return s.first && s.small && written < batchGrowAfter
}

// readBytes is what reading the files of todo reads, at most maxBytes a
// file.
func readBytes(todo []syncJob, maxBytes int64) int64 {
	var n int64
	for _, j := range todo {
		n += min(j.Size, maxBytes)
	}
	return n
}

// freeAfter: after a sync that indexed more files than this, the stem
// cache is emptied (see words.ResetStems).
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
	old  *store.Entry
	e    *store.Entry
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
func (ix *Index) publishEarly(first bool, cur *state, mu *sync.Mutex, files map[string]*store.Entry) (stop func()) {
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
func (ix *Index) reloadEntries(r *root, files map[string]*store.Entry) {
	if r.temp {
		return
	}
	endDecode := ix.tuner().Decode()
	m, err := store.LoadManifest(r.cache, r.real)
	endDecode()
	if err != nil {
		return // keep the entries made by the sync
	}
	m.ShareSymbolsFile(&r.symw)
	for rel, e := range m.Files {
		api := r.api(rel)
		if e.Skip != "" || files[api] == nil {
			continue
		}
		e.SetPath(api)
		files[api] = e
	}
}

// A sync runs in stages, each a method below:
//
//  1. walkRoots lists the files, keeps those whose size and mtime the index
//     already vouches for, and deletes from bleve the files that are gone;
//  2. readChanged reads, hashes, chunks and analyses the rest on one
//     goroutine per core (compactEntry keeps each entry's chunks encoded);
//  3. submitResults takes the results on two goroutines, records them in
//     the file map, streams their symbols to the symbols file, and sends
//     their documents to bleve in batches (the journal lists each batch's
//     files before it is written); a small first build asks scorch to
//     merge the batches' segments as it goes (smallBuildBytes);
//  4. finishSync waits for bleve to persist, checks bleve against the file
//     map and saves the manifest while a first build's segments are
//     merged (and its symbol table built: tableBesideSettle), then
//     applies the edits queued meanwhile and publishes the result.

// syncJob is one file the walk could not vouch for.
type syncJob struct {
	r *root
	walk.File
	old     *store.Entry
	suspect bool // in flight at a crash (read from r.suspect by the walk)
}

// syncRun is what the stages of one sync share.
type syncRun struct {
	ctx      context.Context
	start    time.Time
	cur      *state                  // the generation the sync started from
	ov       map[string][]byte       // open buffers
	files    map[string]*store.Entry // the new file map (guarded by mu once readers run): cur's until own
	owned    bool                    // files is the sync's own copy (own)
	first    bool                    // a first build: see publishEarly and finishSync
	small    bool                    // its files are few (smallBuildBytes)
	stats    SyncStats
	mu       sync.Mutex   // guards files, stats, r.skipped, r.suspect while results are submitted
	symMu    sync.Mutex   // guards r.symw while results are submitted
	written  atomic.Int64 // documents sent to bleve
	merges   store.BuildMerger
	progress func(phase string, done, total int)
}

func (ix *Index) sync(ctx context.Context) (SyncStats, error) {
	ix.mu.Lock()
	cur, ov := ix.cur, ix.overlay
	ix.mu.Unlock()
	s := &syncRun{ctx: ctx, start: time.Now(), cur: cur, ov: ov, files: cur.files,
		first: len(cur.files) == 0, stats: SyncStats{Skipped: map[string]int{}}}
	if s.first {
		s.own() // publishEarly reads the map it is given
	}
	s.progress = func(phase string, done, total int) {
		if ix.opts.Progress != nil {
			ix.opts.Progress(Progress{Phase: phase, Done: done, Total: total})
		}
	}
	// The command owning the process may tune the runtime for the bulk
	// load (Options.Runtime).
	endBulk := ix.tuner().BulkLoad()
	defer func() {
		if s.stats.Indexed > freeAfter {
			words.ResetStems() // see its comment
		}
		endBulk(s.stats.Indexed)
	}()

	region := rtrace.StartRegion(ctx, "sync: walk")
	todo, err := ix.walkRoots(s)
	region.End()
	if err != nil {
		return s.stats, err
	}
	total := len(todo)
	s.small = readBytes(todo, ix.opts.MaxFileBytes) < smallBuildBytes
	s.progress("index", 0, total)
	region = rtrace.StartRegion(ctx, "sync: read, chunk, batch")
	results := ix.readChanged(s, todo)
	stopEarly := ix.publishEarly(s.first, cur, &s.mu, s.files)
	batchErr := ix.submitResults(s, results, total)
	stopEarly()
	region.End()
	if err := ctx.Err(); err != nil {
		// What was written is journaled; keep what is known.
		ix.publish(&state{gen: cur.gen, ready: cur.ready, files: s.files}, nil)
		return s.stats, fmt.Errorf("index: sync interrupted: %w", err)
	}
	if batchErr != nil {
		return s.stats, fmt.Errorf("index: writing to bleve: %w", batchErr)
	}
	if err := ix.finishSync(s); err != nil {
		return s.stats, err
	}
	s.progress("done", total, total)
	return s.stats, nil
}

// walkRoots walks every root and returns the files whose size and mtime
// differ from what the index holds; files gone from a root are deleted
// from the file map and from bleve.
func (ix *Index) walkRoots(s *syncRun) ([]syncJob, error) {
	var todo []syncJob
	s.progress("walk", 0, 0)
	pw := ix.pre.Swap(nil) // the walk Open started (WalkAtOpen), taken once
	if pw != nil && !pw.wait(s.ctx) {
		pw.stop()
		return nil, s.ctx.Err()
	}
	for i, r := range ix.roots {
		if r.buffersOnly != "" {
			continue // not walked: its open buffers are indexed as edits
		}
		var res walk.Result
		var err error
		if pw != nil {
			res, err = pw.roots[i].res, pw.roots[i].err
			for k, n := range pw.roots[i].skipped {
				s.stats.Skipped[k] += n
			}
		} else {
			r.ign.Reset()
			o := ix.walkOptions()
			o.Skipped = s.stats.Skipped
			res, err = walk.Walk(s.ctx, walk.Root{Abs: r.abs, Real: r.real, Ignore: r.ign}, o)
		}
		if err != nil {
			return nil, fmt.Errorf("index: walking %s: %w", r.abs, err)
		}
		s.stats.IgnoreNotes = append(s.stats.IgnoreNotes, res.Notes...)
		var held heldCount
		for _, batch := range res.Batches {
			for _, f := range batch {
				if j, ok := ix.vouch(s, r, f, &held); !ok {
					todo = append(todo, j)
				}
			}
		}
		if err := ix.removeGone(s, r, res, held); err != nil {
			return nil, err
		}
	}
	return todo, nil
}

// vouch says whether the index can keep what it holds of the walked file
// f (same size and mtime, not open, not suspect), counting it; if not, it
// returns the job that reads it.
// It counts in held the walked files the index holds.
func (ix *Index) vouch(s *syncRun, r *root, f walk.File, held *heldCount) (syncJob, bool) {
	api := r.api(f.Rel)
	old := s.files[api]
	if old != nil {
		held.files++
	} else if old = r.skipped[f.Rel]; old != nil {
		held.skipped++
	}
	_, open := s.ov[api]
	suspect := r.suspect[f.Rel]
	if old != nil && !open && !suspect && old.Size == f.Size && old.MTime == f.MTime {
		if old.Skip != "" {
			s.stats.Skipped[old.Skip]++ // still skipped, not "unchanged"
		} else {
			s.stats.Unchanged++
		}
		return syncJob{}, true
	}
	return syncJob{r, f, old, suspect}, false
}

// own makes s.files the sync's own copy of the file map before its first
// change: until then it is the current generation's, which readers use.
// A sync that changes nothing (a warm start) copies nothing (the kernel:
// a map of 78,000 entries, 3 MB touched for the first time). Call it
// with s.mu held once results are submitted.
func (s *syncRun) own() {
	if !s.owned {
		s.files, s.owned = maps.Clone(s.files), true
	}
}

// heldCount counts the files of one root's walk that the index holds:
// in the file map, or among the root's skipped files.
type heldCount struct{ files, skipped int }

// removeGone deletes the files of r the walk did not see (removed files,
// and files in flight at a crash that are gone) from the file map and
// from bleve. When the walk saw every file the index holds of r (held,
// counted by vouch: the walk finds each path once) and none was in
// flight at a crash, none is gone and it looks no further (a warm start
// on the kernel: 78,000 paths in a map, and as many lookups, saved).
func (ix *Index) removeGone(s *syncRun, r *root, walked walk.Result, held heldCount) error {
	if len(r.suspect) == 0 && held.skipped == len(r.skipped) && held.files == ix.filesIn(s, r) {
		return nil
	}
	seen := make(map[string]bool, walked.Len())
	for _, batch := range walked.Batches {
		for _, f := range batch {
			seen[f.Rel] = true
		}
	}
	s.own()
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
	for api, e := range s.files {
		rr, rel := ix.rootOf(api)
		if rr != r || seen[rel] {
			continue
		}
		if _, open := s.ov[api]; open {
			continue // an unsaved buffer keeps it
		}
		for n := range e.ChunkCount() {
			batch.Delete(store.DocID(rel, n))
		}
		delete(s.files, api)
		gone = append(gone, rel)
		s.stats.Removed++
		r.dirty = true
	}
	if batch.Size() > 0 {
		r.writeJournal(gone, ix.log)
		if err := ix.persist.Run(r.bi, batch); err != nil {
			return fmt.Errorf("index: removing deleted files: %w", err)
		}
	}
	return nil
}

// filesIn counts the entries of r in the sync's file map.
func (ix *Index) filesIn(s *syncRun, r *root) int {
	if len(ix.roots) == 1 {
		return len(s.files)
	}
	n := 0
	for api := range s.files {
		if rr, _ := ix.rootOf(api); rr == r {
			n++
		}
	}
	return n
}

// readChanged reads, hashes, chunks and analyses the files of todo on one
// goroutine per core and returns their results, closed when all are in
// (or the context ends). Two goroutines submit them (submitResults):
// bleve builds a batch's segment on the submitting goroutine; its merger
// runs beside them. A first build goes
// the same way: scorch's offline builder, used before, built segments one
// at a time and merged them all at the end, alone: GOROOT/src 12.0-13.0 s
// against 9.2-10.5 s with batches of 1,000 (peak RSS 345-355 against
// 409-476 MB); a tree of 27,034 files 46.4 s / 921 MB against 42.6 s /
// 809 MB. And batches are searchable as they are written.
func (ix *Index) readChanged(s *syncRun, todo []syncJob) <-chan result {
	largestFirst(todo, 2*runtime.GOMAXPROCS(0))
	jobs := make(chan syncJob)
	results := make(chan result, 64)
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- ix.readOne(s, j)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-s.ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// largestFirst moves the n largest files to read to the front of todo,
// from the largest down (by path among equals, so that the order is the
// same each time), the others keeping the walk's order: a large file read
// last (go/parser on a 1 MB generated file takes a few hundred
// milliseconds) left one reader working alone at the end of the build;
// read first, it overlaps the small ones. Only a few: with every file in
// that order, the results waiting for the submitters were the largest
// files' for much of the build, and a cold build of GOROOT/src peaked
// 150 MB higher.
func largestFirst(todo []syncJob, n int) {
	if n <= 0 || len(todo) == 0 {
		return
	}
	n = min(n, len(todo))
	idx := make([]int, len(todo))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(todo[b].Size, todo[a].Size), strings.Compare(todo[a].Rel, todo[b].Rel), cmp.Compare(a, b))
	})
	head := make([]syncJob, 0, len(todo))
	taken := make([]bool, len(todo))
	for _, i := range idx[:n] {
		head = append(head, todo[i])
		taken[i] = true
	}
	for i, j := range todo {
		if !taken[i] {
			head = append(head, j)
		}
	}
	copy(todo, head)
}

// readOne reads, hashes, chunks and analyses one file (its open buffer
// when it has one).
func (ix *Index) readOne(s *syncRun, j syncJob) result {
	res := result{r: j.r, rel: j.Rel, old: j.old}
	api := j.r.api(j.Rel)
	if content, open := s.ov[api]; open {
		res.e, res.docs = ix.prepare(j.r, j.Rel, content, int64(len(content)), 0, false)
		res.e.Compact()
		store.AnalyseDocs(res.docs)
		return res
	}
	data, _, err := walk.ReadCapped(j.r.abs+"/"+j.Rel, ix.opts.MaxFileBytes)
	if err != nil {
		res.e = &store.Entry{Skip: walk.SkipReason(err)}
		if res.e.Skip != "unreadable" {
			// Refused for what it is: trust size and mtime next time, as
			// for any skipped file.
			res.e.Size, res.e.MTime = j.Size, j.MTime
		}
		if os.IsNotExist(err) {
			res.e = nil // vanished between walk and read
		}
		return res
	}
	res.e, res.docs = ix.prepare(j.r, j.Rel, data, j.Size, j.MTime, false)
	if j.old != nil && res.e.Hash == j.old.Hash && res.e.Skip == j.old.Skip && !j.suspect {
		// Touched, not changed: keep the chunks, learn the mtime.
		e := *j.old
		e.Size, e.MTime = j.Size, j.MTime
		res.e, res.docs, res.old, res.same = &e, nil, nil, true
		return res
	}
	res.e.Compact()
	store.AnalyseDocs(res.docs)
	return res
}

// submitResults records each result in the file map and sends its
// documents to bleve, on two goroutines, and returns the first error of a
// batch.
func (ix *Index) submitResults(s *syncRun, results <-chan result, total int) error {
	var done atomic.Int64
	var wg sync.WaitGroup
	var batchErr error
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub := &submitter{ix: ix, s: s, batches: map[*root]*bleve.Batch{}, rels: map[*root][]string{}, ndocs: map[*root]int{}}
			for res := range results {
				if n := done.Add(1); n%256 == 0 {
					s.progress("index", int(n), total)
				}
				sub.take(res)
			}
			for r := range sub.batches {
				sub.flush(r)
			}
			if sub.err != nil {
				s.mu.Lock()
				batchErr = sub.err
				s.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return batchErr
}

// submitter is one of submitResults' goroutines: its batches, one per
// root, and the files each lists.
type submitter struct {
	ix      *Index
	s       *syncRun
	batches map[*root]*bleve.Batch
	rels    map[*root][]string
	ndocs   map[*root]int
	err     error
}

// batch is the submitter's batch for r.
func (sub *submitter) batch(r *root) *bleve.Batch {
	b := sub.batches[r]
	if b == nil {
		b = r.bi.NewBatch()
		sub.batches[r] = b
	}
	return b
}

// take records one result and adds its documents to r's batch, which is
// written once it holds batchSize documents.
func (sub *submitter) take(res result) {
	s, r := sub.s, res.r
	api := r.api(res.rel)
	if e := res.e; e != nil && e.Skip == "" && !res.same && !r.temp {
		// Its symbols go to the symbols file now rather than stay in
		// memory until the manifest is saved (e is in no state yet).
		s.symMu.Lock()
		r.symw.Add(r.cache, r.real, res.rel, e)
		s.symMu.Unlock()
		e.SetPath(api)
	}
	s.mu.Lock()
	r.dirty = true
	if res.old != nil || r.suspect[res.rel] {
		sub.ix.purge(r, res.rel, res.old, len(res.docs), sub.batch(r))
		sub.rels[r] = append(sub.rels[r], res.rel)
	}
	s.own()
	delete(s.files, api)
	delete(r.skipped, res.rel)
	switch {
	case res.e == nil:
		s.stats.Skipped["vanished"]++
	case res.e.Skip != "":
		r.skipped[res.rel] = res.e
		s.stats.Skipped[res.e.Skip]++
	case res.same:
		s.files[api] = res.e // unchanged content
		s.stats.Unchanged++
	default:
		s.files[api] = res.e
		s.stats.Indexed++
		s.stats.Chunks += len(res.docs)
	}
	s.mu.Unlock()
	if len(res.docs) == 0 {
		return
	}
	b := sub.batch(r)
	for _, d := range res.docs {
		b.IndexAdvanced(d)
	}
	sub.rels[r] = append(sub.rels[r], res.rel)
	sub.ndocs[r] += len(res.docs)
	if sub.ndocs[r] >= batchSize(sub.s.written.Load()) {
		sub.flush(r)
	}
}

// flush writes r's batch, journaled.
func (sub *submitter) flush(r *root) {
	b := sub.batches[r]
	if b == nil || b.Size() == 0 {
		return
	}
	sub.s.mu.Lock()
	r.writeJournal(sub.rels[r], sub.ix.log)
	sub.s.mu.Unlock()
	if err := sub.ix.persist.Run(r.bi, b); err != nil && sub.err == nil {
		sub.err = err
	}
	written := sub.s.written.Add(int64(sub.ndocs[r]))
	sub.batches[r], sub.rels[r], sub.ndocs[r] = nil, nil, 0
	if sub.s.smallBuild(written) {
		// A small build merges as it goes (store.BuildMerger).
		sub.s.merges.Kick(sub.s.ctx, r.bi, batchDocs)
	}
}

// finishSync makes what the sync wrote durable, checks it, records it in
// the manifests and publishes it with the edits queued meanwhile. A first
// build's merges (settleFirstBuild) run beside the check and the manifest
// save: they only reorganise documents bleve has already persisted.
func (ix *Index) finishSync(s *syncRun) error {
	region := rtrace.StartRegion(s.ctx, "sync: persist")
	err := ix.persist.Wait()
	region.End()
	if err != nil {
		return fmt.Errorf("index: persisting: %w", err)
	}
	settled := ix.settleFirstBuild(s)
	region = rtrace.StartRegion(s.ctx, "sync: verify")
	for _, r := range ix.roots {
		if err := ix.verifyRoot(r, s.files); err != nil {
			region.End()
			settled()
			return err
		}
	}
	region.End()
	st := &state{ready: true, files: s.files}
	for _, r := range ix.roots {
		writes := r.dirty // saveRoot writes only a changed root's manifest
		region = rtrace.StartRegion(s.ctx, "sync: manifest")
		err := ix.saveRoot(r, st)
		region.End()
		if err != nil {
			ix.log.Warn("index: cannot save the manifest; the next start re-indexes", "err", err)
		} else if writes && s.stats.Indexed > freeAfter {
			s.own() // owned already: it indexed files
			rtrace.WithRegion(s.ctx, "sync: reload entries", func() { ix.reloadEntries(r, s.files) })
		}
	}
	st.tab = ix.tableBesideSettle(s)
	rtrace.WithRegion(s.ctx, "sync: settle (wait)", settled)
	pend, gen, ov2, _ := ix.takePending()
	if len(pend) > 0 {
		s.own()
	}
	ix.applyChanges(s.files, pend, ov2)
	st.files = s.files // the sync's own copy, if the edits made one

	var changed map[string]bool // nil: publish compares the file maps
	if !s.owned {
		// The same map, unchanged: its sums and its symbol table hold,
		// with no pass over its entries.
		st.sums = s.cur.sums
		if st.tab.IsZero() {
			st.tab, changed = s.cur.tab, map[string]bool{}
		}
	}
	st.gen = gen
	s.stats.Files = len(s.files)
	s.stats.Duration = time.Since(s.start)
	ix.publish(st, changed)
	if s.first && ix.opts.SymbolsOnDemand {
		// Kept in the cache, so that the first lookup of the next
		// process (a server) reads it instead of building it. Bleve's
		// batches are garbage by now, and the build keeps its strings
		// out of the collector's way (store's interner): the kernel's
		// table peaks under what its index's build reached. The table
		// tableBesideSettle started shares its bases: this waits for
		// it.
		rtrace.WithRegion(s.ctx, "sync: symbol table", st.tab.Build)
	}
	return nil
}

// tableBesideSettleFiles bounds the trees whose symbol table a first build
// makes while the settle's merges run (tableBesideSettle): GOROOT/src
// (9,665 files, 228,000 symbols, about 0.2 s of one core) and a tree of
// 27,000 files, not the Linux tree (78,000 files, 2.9 million symbols),
// whose table's build peaks near 1.3 GB on its own: beside the merges'
// segments it would raise the build's peak.
const tableBesideSettleFiles = 30_000

// tableBesideSettle starts, after a first build that keeps its symbol
// table (Options.SymbolsOnDemand), the table's build for the files the
// manifest now holds, so that it runs while scorch's merges use one core
// (settleFirstBuild) instead of after them, and returns that table: the
// generation finishSync publishes is made from it (publish), sharing its
// bases when the edits applied meanwhile are few. Otherwise it returns
// the zero table and publish starts from the published one.
func (ix *Index) tableBesideSettle(s *syncRun) store.SymbolTable {
	if !s.first || !ix.opts.SymbolsOnDemand || len(s.files) > tableBesideSettleFiles {
		return store.SymbolTable{}
	}
	ix.mu.Lock()
	prev := ix.cur.tab
	ix.mu.Unlock()
	// A base's file map is read-only: the edits queued meanwhile are
	// applied to s.files after the settle.
	tab := store.FreshSymbolTable(prev, maps.Clone(s.files))
	tab.BuildAsync()
	return tab
}

// settleFirstBuild starts, after a first build, the merges of its many
// small segments, which would otherwise run after it, beside the first
// edits and searches (or at the next start, when askls index exits), and
// returns a function that waits for them. Scorch runs a merge plan on one
// goroutine, so they used to be the longest stretch of a cold build with
// one core working (docs/kernel.md, "Where the cold build's time goes"):
// they now overlap the check and the manifest save, and the sync publishes
// once they are done. After any other sync it does nothing.
func (ix *Index) settleFirstBuild(s *syncRun) (wait func()) {
	if !s.first {
		return func() {}
	}
	// A small build merged as it went: it settles with the same plan.
	small := 0
	if s.smallBuild(s.written.Load()) {
		small = batchDocs
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer rtrace.StartRegion(s.ctx, "sync: settle").End()
		s.merges.Wait()
		for _, r := range ix.roots {
			if err := store.Settle(s.ctx, r.bi, small); err != nil {
				ix.log.Warn("index: merging the first build's segments", "err", err)
			}
		}
	}()
	return func() { <-done }
}

// verifyRoot checks, after a sync, that bleve holds one document per chunk
// of r's files: an index that cannot answer is an error, never a success.
// The manifest is removed so that the next start rebuilds. The first
// sync after Open, when it wrote nothing to r, relies on the count
// store.Load checked instead (a warm start on the kernel: a pass over
// 78,000 entries).
func (ix *Index) verifyRoot(r *root, files map[string]*store.Entry) error {
	counted := r.openChecked && !r.dirty
	r.openChecked = false
	if r.buffersOnly != "" || counted {
		return nil
	}
	want := uint64(0)
	for api, e := range files {
		if rr, _ := ix.rootOf(api); rr == r {
			want += uint64(e.ChunkCount())
		}
	}
	got, err := r.bi.DocCount()
	if err == nil && got == want {
		return nil
	}
	os.Remove(filepath.Join(r.cache, store.ManifestFile))
	r.dirty = false // not saved over: the next start rebuilds
	if err != nil {
		return fmt.Errorf("index: %s: bleve cannot count its documents (%w); the next start rebuilds the index", r.abs, err)
	}
	return fmt.Errorf("index: %s: bleve holds %d documents where the index lists %d chunks; the next start rebuilds the index (cache %s)", r.abs, got, want, r.cache)
}
