package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/askls/askls/corpus"
	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/zeebo/blake3"
)

// Update sets the current content of a file (an open editor buffer). It is
// visible to Read/Grep/Outline of every later Snapshot at once, and queued
// for the writer. It returns the generation at which it is searchable.
func (ix *Index) Update(p string, content []byte) uint64 {
	api, ok := ix.normalize(p)
	if !ok {
		ix.log.Debug("index: update outside the roots ignored", "path", p)
		return ix.published()
	}
	if r, rel := ix.rootOf(api); r != nil && r.secretFile(rel) {
		// A secret by its name or its target's (config.txt -> .env): its
		// content is never held, whatever the editor shows; the file
		// falls back to disk, where readRegular refuses it.
		return ix.Release(p)
	}
	var c []byte
	if int64(len(content)) > ix.opts.MaxFileBytes {
		// Never read out, indexed or searched (Content, prepare and
		// staleBuffers refuse it for its length): the overlay holds one
		// shared placeholder instead of a copy, so a keystroke in a 50 MB
		// buffer copies, hashes and keeps nothing of it.
		c = ix.oversizedBuffer()
	} else {
		c = bytes.Clone(content)
		if c == nil {
			c = []byte{}
		}
		secret.Redact(c) // offsets unchanged: see secret.Redact
	}
	ix.mu.Lock()
	ov := maps.Clone(ix.overlay)
	ov[api] = c
	ix.overlay = ov
	g := ix.queueLocked(api)
	ix.mu.Unlock()
	return g
}

// oversizedBuffer is what the overlay holds for an open buffer over
// Options.MaxFileBytes: MaxFileBytes+1 zero bytes, made once per Index and
// shared by every such buffer, never written to.
func (ix *Index) oversizedBuffer() []byte {
	ix.oversizedOnce.Do(func() { ix.oversized = make([]byte, ix.opts.MaxFileBytes+1) })
	return ix.oversized
}

// Release drops the content set by Update: the file falls back to disk.
func (ix *Index) Release(p string) uint64 {
	api, ok := ix.normalize(p)
	if !ok {
		return ix.published()
	}
	ix.mu.Lock()
	if _, open := ix.overlay[api]; open {
		ov := maps.Clone(ix.overlay)
		delete(ov, api)
		ix.overlay = ov
		ix.bufSums.Delete(api)
	}
	g := ix.queueLocked(api)
	ix.mu.Unlock()
	return g
}

// Changed tells the index that a file changed on disk; a deleted file is
// removed. A changed ignore file makes the writer walk the roots again.
func (ix *Index) Changed(p string) uint64 {
	api, ok := ix.normalize(p)
	if !ok {
		return ix.published()
	}
	if b := baseName(api); b == ".gitignore" || b == ".asklsignore" {
		for _, r := range ix.roots {
			r.ign.Reset()
		}
		go func() {
			if _, err := ix.Sync(context.Background()); err != nil && !errors.Is(err, errClosed) {
				ix.log.Warn("index: re-walk after an ignore file changed", "err", err)
			}
		}()
	}
	ix.mu.Lock()
	g := ix.queueLocked(api)
	ix.mu.Unlock()
	return g
}

// queueLocked queues api for the writer and returns its generation.
func (ix *Index) queueLocked(api string) uint64 {
	ix.seq++
	ix.pending[api] = true
	select {
	case ix.kick <- struct{}{}:
	default:
	}
	return ix.seq
}

func (ix *Index) published() uint64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.cur.gen
}

// WaitFor blocks until generation gen is published or ctx ends.
func (ix *Index) WaitFor(ctx context.Context, gen uint64) error {
	for {
		ix.mu.Lock()
		cur, ch := ix.cur.gen, ix.pubCh
		ix.mu.Unlock()
		if cur >= gen {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-ix.done:
			return errClosed
		}
	}
}

var errClosed = errors.New("index: closed")

// Snapshot returns an immutable view of the current generation and the
// open buffers.
func (ix *Index) Snapshot() *Snapshot {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return &Snapshot{ix: ix, st: ix.cur, overlay: ix.overlay}
}

// publish makes st current. changed lists the paths whose entries may
// differ from the current generation's; nil means any may.
func (ix *Index) publish(st *state, changed map[string]bool) {
	ix.mu.Lock()
	cur := ix.cur
	ix.mu.Unlock()
	prev := st.tab // a table made ahead for st's files (tableBesideSettle), if any
	if prev.IsZero() {
		prev = cur.tab
	}
	st.tab = store.NextSymbolTable(prev, st.files, changed)
	ix.carryTraits(st, cur, changed)
	if st.ready && !ix.opts.SymbolsOnDemand {
		st.tab.BuildAsync()
	}
	ix.mu.Lock()
	if st.gen < ix.cur.gen {
		st.gen = ix.cur.gen
	}
	ix.cur = st
	close(ix.pubCh)
	ix.pubCh = make(chan struct{})
	ix.mu.Unlock()
}

// writer is the one goroutine that writes to bleve. It runs jobs (Sync)
// and applies queued edits. After a batch it rests as long as that batch
// took, never longer than the debounce interval, and edits arriving
// meanwhile go into the next batch: a burst of keystrokes is coalesced
// and the writer stays idle at least half the time, yet an edit is not
// held back for a fixed interval when batches are cheap (an edit inside
// one function re-indexes one chunk: a few milliseconds).
func (ix *Index) writer() {
	defer close(ix.writerDone)
	var last time.Time
	var took time.Duration
	for {
		select {
		case <-ix.done:
			return
		case job := <-ix.jobs:
			ix.dropSpare()
			job()
		case <-ix.kick:
			if wait := min(took, ix.opts.Debounce) - time.Since(last); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-ix.done:
					t.Stop()
					return
				}
			}
			start := time.Now()
			ix.applyPending()
			last = time.Now()
			took = last.Sub(start)
			ix.makeSpare() // after took: a rest, not part of the batch
		}
	}
}

// run executes job on the writer goroutine and waits for it.
func (ix *Index) run(ctx context.Context, job func()) error {
	finished := make(chan struct{})
	select {
	case ix.jobs <- func() { defer close(finished); job() }:
	case <-ctx.Done():
		return ctx.Err()
	case <-ix.done:
		return errClosed
	}
	<-finished
	return nil
}

// takePending hands the queued paths to the writer with the generation
// that covers them, and the open buffers to read them from.
func (ix *Index) takePending() (map[string]bool, uint64, map[string][]byte, *state) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	p := ix.pending
	ix.pending = map[string]bool{}
	return p, ix.seq, ix.overlay, ix.cur
}

// applyPending indexes the queued paths and publishes a generation.
func (ix *Index) applyPending() {
	pend, gen, ov, cur := ix.takePending()
	files := ix.filesToChange(cur)
	ix.applyChanges(files, pend, ov)
	ix.publish(&state{gen: gen, ready: cur.ready, files: files}, pend)
}

// applyChanges re-reads each path (open buffer first, then disk), and
// writes the result to bleve in one batch per root, updating files.
func (ix *Index) applyChanges(files map[string]*store.Entry, pend map[string]bool, ov map[string][]byte) {
	if len(pend) == 0 {
		return
	}
	batches := map[*root]*bleve.Batch{}
	touched := map[*root][]string{}
	for api := range pend {
		r, rel := ix.rootOf(api)
		if r == nil {
			continue
		}
		b := batches[r]
		if b == nil {
			b = r.bi.NewBatch()
			batches[r] = b
		}
		old := files[api]
		e, docs, reused := ix.reread(r, rel, api, old, ov)
		ix.stage(r, rel, old, e, docs, reused, b)
		delete(r.skipped, rel)
		delete(files, api)
		switch {
		case e == nil:
		case e.Skip != "":
			r.skipped[rel] = e
		default:
			files[api] = e
		}
		touched[r] = append(touched[r], rel)
		r.dirty = true
	}
	ix.commitBatches(files, batches, touched)
}

// reread is the new entry of a changed path and the documents to index
// for it: from its open buffer, else from disk (unless the root is read
// from buffers only). e is nil for a file that is gone or closed;
// reused is true when old's chunks still hold.
func (ix *Index) reread(r *root, rel, api string, old *store.Entry, ov map[string][]byte) (e *store.Entry, docs []*document.Document, reused bool) {
	if content, open := ov[api]; open {
		return ix.prepareAgainst(r, rel, content, int64(len(content)), 0, old)
	}
	if r.buffersOnly != "" {
		return nil, nil, false // closed: the disk is not read
	}
	data, info, err := readRegular(r, rel, ix.opts.MaxFileBytes)
	switch {
	case err == nil:
		return ix.prepareAgainst(r, rel, data, info.Size(), info.ModTime().UnixNano(), old)
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, false // deleted
	case errors.Is(err, walk.ErrSecret):
		return &store.Entry{Skip: "secret"}, nil, false // a link to a secret file, as the walk skips it
	default:
		ix.log.Warn("index: cannot read a changed file", "path", api, "err", err)
		return &store.Entry{Skip: "unreadable"}, nil, false
	}
}

// stage adds to b what replaces old by e in bleve. A document that would
// index exactly what bleve already holds under its id is not sent again:
// an edit inside one function re-indexes that chunk, not the whole file
// (the other chunks' lines live in the entry).
func (ix *Index) stage(r *root, rel string, old, e *store.Entry, docs []*document.Document, reused bool, b *bleve.Batch) {
	same := sameDocs(r, rel, old, e)
	keep := len(docs)
	if reused {
		keep = old.ChunkCount()
	}
	ix.purge(r, rel, old, keep, b)
	for i, d := range docs {
		if same == nil || !same[i] {
			b.IndexAdvanced(d)
		}
	}
}

// commitBatches writes each root's batch after its journal. When a batch
// fails, what bleve holds of its files is unknown: their entries forget
// their document hashes, so the next edit re-indexes every chunk.
func (ix *Index) commitBatches(files map[string]*store.Entry, batches map[*root]*bleve.Batch, touched map[*root][]string) {
	for r, b := range batches {
		if b.Size() == 0 {
			continue
		}
		r.writeJournal(touched[r], ix.log)
		if err := ix.persist.Run(r.bi, b); err != nil {
			ix.log.Error("index: writing a batch failed; the files stay queued for the next sync", "err", err)
			for _, rel := range touched[r] {
				if e := files[r.api(rel)]; e != nil {
					e.ForgetDocHashes()
				}
			}
		}
	}
}

// purge adds to b the deletes for the chunks of old that keep chunks will
// not overwrite, and for everything bleve holds of a suspect file.
func (ix *Index) purge(r *root, rel string, old *store.Entry, keep int, b *bleve.Batch) {
	if old != nil {
		for n := keep; n < old.ChunkCount(); n++ {
			b.Delete(store.DocID(rel, n))
		}
	}
	if !r.suspect[rel] {
		return
	}
	delete(r.suspect, rel)
	q := query.NewTermQuery(rel)
	q.SetField(store.FieldPathKW)
	req := bleve.NewSearchRequestOptions(q, 100000, 0, false)
	res, err := r.bi.Search(req)
	if err != nil {
		ix.log.Warn("index: cannot purge a file left over by a crash", "path", rel, "err", err)
		return
	}
	for _, h := range res.Hits {
		if _, n, ok := store.ParseDocID(h.ID); ok && n >= keep {
			b.Delete(h.ID)
		}
	}
}

// writeJournal records rels as in flight before their batch runs. When
// the journal cannot be written, the manifest is removed first: a crash
// during the batch then means a rebuild (the manifest would no longer
// describe what bleve holds), and the next save writes it again.
func (r *root) writeJournal(rels []string, log *slog.Logger) {
	if len(rels) == 0 || r.temp {
		return
	}
	var err error
	if r.journal == nil {
		err = errors.New("the journal is not open")
	} else {
		var buf bytes.Buffer
		for _, rel := range rels {
			buf.WriteString(rel)
			buf.WriteByte('\n')
		}
		_, err = r.journal.Write(buf.Bytes())
	}
	if err == nil {
		return
	}
	if !r.journalFailed {
		r.journalFailed = true
		log.Warn("index: cannot write the crash journal; the manifest is removed while writing, so a crash now means a rebuild", "root", r.abs, "err", err)
	}
	r.dirty = true
	os.Remove(filepath.Join(r.cache, store.ManifestFile))
}

// secretFile reports whether rel, a file of r, is a secret by its name or
// by the name of what it resolves to on disk (a symlink, a chain of them,
// a linked folder on the way): an open buffer config.txt -> .env is .env.
func (r *root) secretFile(rel string) bool {
	if secret.IsName(rel) {
		return true
	}
	real, err := filepath.EvalSymlinks(filepath.Join(r.abs, filepath.FromSlash(rel)))
	return err == nil && secret.IsName(filepath.ToSlash(real))
}

// readRegular reads a file of r, at most max bytes (walk.ReadCapped),
// refusing what leaves the root through a symlink, and what is not a
// regular file.
func readRegular(r *root, rel string, max int64) ([]byte, fs.FileInfo, error) {
	abs := filepath.Join(r.abs, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, nil, err
	}
	if !walk.Within(r.real, real) {
		return nil, nil, fmt.Errorf("%w: %s leads out of the root", ErrOutsideRoot, rel)
	}
	if secret.IsName(rel) || secret.IsName(filepath.ToSlash(real)) {
		return nil, nil, fmt.Errorf("%s: %w", rel, walk.ErrSecret)
	}
	return walk.ReadCapped(real, max)
}

// prepareAgainst is prepare for a file the index may already hold as old.
// The same content as old (a save after the edits were indexed, a buffer
// closed unchanged) keeps old's chunks and documents with the new size and
// mtime: reused is true and nothing is chunked or sent.
func (ix *Index) prepareAgainst(r *root, rel string, content []byte, size, mtime int64, old *store.Entry) (e *store.Entry, docs []*document.Document, reused bool) {
	if old != nil && old.Skip == "" && !r.suspect[rel] && !r.ign.IgnoredPath(rel, ix.opts.IncludeVendor) &&
		blake3.Sum256(content) == old.Hash {
		kept := *old
		kept.Size, kept.MTime = size, mtime
		return &kept, nil, true
	}
	e, docs = ix.prepare(r, rel, content, size, mtime, true)
	return e, docs, false
}

// prepare classifies and chunks one file. It returns nil when the file is
// not for the index at all (ignored), an entry with Skip set when it is
// filtered out, and otherwise the entry and its documents. checkPath
// re-applies the ignore and name rules (edits come without a walk).
func (ix *Index) prepare(r *root, rel string, content []byte, size, mtime int64, checkPath bool) (*store.Entry, []*document.Document) {
	if checkPath && (r.ign.IgnoredPath(rel, ix.opts.IncludeVendor)) {
		return nil, nil
	}
	e := &store.Entry{Size: size, MTime: mtime, Hash: blake3.Sum256(content), Lang: chunk.Language(rel), Test: isTestPath(rel),
		Generated: corpus.IsGenerated(content)}
	switch {
	case checkPath && secret.IsName(rel):
		e.Skip = "secret"
	case int64(len(content)) > ix.opts.MaxFileBytes:
		e.Skip = "too large"
	case walk.IsBinary(content):
		e.Skip = "binary"
	case !utf8.Valid(content):
		e.Skip = "not utf-8"
	case secret.LooksLikePrivateKey(e.Lang, content):
		e.Skip = "secret"
	}
	if e.Skip != "" {
		return e, nil
	}
	api := r.api(rel)
	chunks, syms := chunk.File(api, e.Lang, content)
	e.SetSymbols(syms)
	metas := make([]chunk.Meta, len(chunks))
	hashes := make([]uint64, len(chunks))
	li := chunk.NewLines(content)
	docs := make([]*document.Document, len(chunks))
	for i, c := range chunks {
		text := li.Text(content, c.Start, c.End)
		off := 0
		if c.Start >= 1 && c.Start <= len(li) {
			off = li[c.Start-1]
		}
		metas[i] = chunk.Meta{Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind, Parts: c.Parts, Off: off, Len: len(text)}
		docs[i] = store.ChunkDoc(rel, e.Lang, e.Test, i, c, text)
		hashes[i] = store.DocHash(c, text)
	}
	e.SetChunks(metas, hashes)
	return e, docs
}

// sameDocs reports, for each chunk of e, whether bleve already holds that
// document for chunk n of old. Nothing is the same for a file left over
// by a crash, or when the language or test flag changed.
func sameDocs(r *root, rel string, old, e *store.Entry) []bool {
	if e == nil || old == nil || r.suspect[rel] || old.Skip != "" || old.Lang != e.Lang || old.Test != e.Test {
		return nil
	}
	hashes, oldHashes, oldCount := e.DocHashes(), old.DocHashes(), old.ChunkCount()
	same := make([]bool, len(hashes))
	for i, h := range hashes {
		same[i] = i < len(oldHashes) && i < oldCount && h != 0 && oldHashes[i] == h
	}
	return same
}
