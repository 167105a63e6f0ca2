package index

import (
	"bytes"
	"container/list"
	"os"
	"path/filepath"
	"sync"

	"github.com/askls/askls/index/chunk"
)

// maxSpanCacheBytes bounds the chunk texts an index keeps (spanCache).
const maxSpanCacheBytes = 8 << 20

// spanCache keeps the chunk texts searches have read from disk
// (chunkTexts), the least recently used dropped first past
// maxSpanCacheBytes. A search that reads chunks an earlier one read
// takes them from here after one lstat of their file (checkFile: the
// test readSpanRaw makes on the open file: a regular file, not a
// symlink, with the size and modification time it had when indexed)
// instead of opening, stating, reading and closing it. A file that
// changed fails the test, and its chunks are read as before.
//
// It is safe for concurrent use. The texts it returns are shared: no one
// may write to them (the rerank only reads its candidates' texts; page
// masks a copy).
type spanCache struct {
	mu    sync.Mutex
	m     map[spanKey]*list.Element // of *spanEntry
	lru   list.List                 // most recently used first
	bytes int
}

// spanKey names a chunk's bytes in one version of a file.
type spanKey struct {
	path        string // the API path
	size, mtime int64  // the file's, when indexed
	off, n      int
}

type spanEntry struct {
	key  spanKey
	text []byte
}

// get returns the texts of the chunks (off and length of each) of the
// file at abs, API path path, indexed with size and mtime, when all of
// them are kept and the file passes checkFile; else ok is false.
func (sc *spanCache) get(path, abs string, size, mtime int64, chunks [][2]int) (texts [][]byte, ok bool) {
	texts = make([][]byte, len(chunks))
	sc.mu.Lock()
	for i, c := range chunks {
		el := sc.m[spanKey{path, size, mtime, c[0], c[1]}]
		if el == nil {
			sc.mu.Unlock()
			return nil, false
		}
		sc.lru.MoveToFront(el)
		texts[i] = el.Value.(*spanEntry).text
	}
	sc.mu.Unlock()
	if !checkFile(abs, size, mtime) {
		return nil, false
	}
	return texts, true
}

// put keeps text, the n bytes at off of the file path indexed with size
// and mtime, read from disk.
func (sc *spanCache) put(path string, size, mtime int64, off int, text []byte) {
	if len(text) > maxSpanCacheBytes/16 {
		return
	}
	key := spanKey{path, size, mtime, off, len(text)}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.m == nil {
		sc.m = map[spanKey]*list.Element{}
	}
	if el := sc.m[key]; el != nil {
		sc.lru.MoveToFront(el)
		return
	}
	text = bytes.Clone(text) // not a slice of a longer read: bytes counts what is kept
	sc.m[key] = sc.lru.PushFront(&spanEntry{key, text})
	sc.bytes += len(text)
	for sc.bytes > maxSpanCacheBytes {
		old := sc.lru.Remove(sc.lru.Back()).(*spanEntry)
		delete(sc.m, old.key)
		sc.bytes -= len(old.text)
	}
}

// checkFile reports whether abs is a regular file (not a symlink) of
// size bytes last modified at mtime (nanoseconds since 1970).
func checkFile(abs string, size, mtime int64) bool {
	info, err := os.Lstat(abs)
	return err == nil && info.Mode().IsRegular() && info.Size() == size && info.ModTime().UnixNano() == mtime
}

// absPath is the absolute path of the file rel of root r.
func absPath(r *root, rel string) string {
	return filepath.Join(r.abs, filepath.FromSlash(rel))
}

// cachedTexts sets out[i] for each chunk i of idx (path and meta from
// at), all of the file p indexed with size and mtime, from the cache;
// it reports false, and sets nothing, unless all of them are kept
// (spanCache.get).
func (s *Snapshot) cachedTexts(p string, size, mtime int64, idx []int, at func(int) (string, chunk.Meta), out [][]byte) bool {
	r, rel := s.ix.rootOf(p)
	if r == nil {
		return false
	}
	chunks := make([][2]int, len(idx))
	for k, i := range idx {
		_, c := at(i)
		if c.Len <= 0 {
			return false
		}
		chunks[k] = [2]int{c.Off, c.Len}
	}
	texts, ok := s.ix.spans.get(p, absPath(r, rel), size, mtime, chunks)
	if !ok {
		return false
	}
	for k, i := range idx {
		out[i] = texts[k]
	}
	return true
}

// clear drops every text (tests compare with the uncached path).
func (sc *spanCache) clear() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.m, sc.bytes = nil, 0
	sc.lru.Init()
}

// readChunk returns a copy of chunk c's bytes of the file p (rel in root
// r, indexed with size and mtime), from the cache or read from disk
// (readSpanRaw) and kept; ok is false when the file is not as indexed.
// The copy is the caller's to change (chunkText masks it).
func (s *Snapshot) readChunk(p string, r *root, rel string, size, mtime int64, c chunk.Meta) ([]byte, bool) {
	if texts, ok := s.ix.spans.get(p, absPath(r, rel), size, mtime, [][2]int{{c.Off, c.Len}}); ok {
		return bytes.Clone(texts[0]), true
	}
	b, ok := readSpanRaw(r, rel, size, mtime, c.Off, c.Len)
	if ok {
		s.ix.spans.put(p, size, mtime, c.Off, b) // put keeps a copy
	}
	return b, ok
}
