package index

import (
	"maps"

	"github.com/askls/askls/index/store"
)

// spareFiles is a private copy of a published generation's files, made by
// the writer once an edit is published, for the next edit to change and
// publish instead of copying the whole table on its own path: on the Linux
// tree (78,000 files) that copy took 0.6 ms an edit, and up to 26 ms in a
// few (docs/kernel.md). It belongs to the writer goroutine.
type spareFiles struct {
	from  *state                  // the generation it copies
	files map[string]*store.Entry // nil: no spare
}

// filesToChange returns a copy of cur's files that the caller owns: the
// spare when it copies cur, else a new copy. The spare is used once.
func (ix *Index) filesToChange(cur *state) map[string]*store.Entry {
	sp := ix.spare
	ix.spare = spareFiles{}
	if sp.from == cur && sp.files != nil {
		return sp.files
	}
	return maps.Clone(cur.files)
}

// makeSpare copies the current generation's files for the next edit,
// unless the spare already copies it. Called by the writer after it
// published an edit, so that the copy is made while the editor types, not
// while an edit waits.
func (ix *Index) makeSpare() {
	ix.mu.Lock()
	cur := ix.cur
	ix.mu.Unlock()
	if cur == nil || cur.files == nil || (ix.spare.from == cur && ix.spare.files != nil) {
		return
	}
	ix.spare = spareFiles{from: cur, files: maps.Clone(cur.files)}
}

// dropSpare forgets the spare: a job (Sync) publishes generations of its
// own, and a spare of an older one would only keep its entries alive.
func (ix *Index) dropSpare() { ix.spare = spareFiles{} }
