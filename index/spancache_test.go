package index

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/chunk"
)

// spanFixture indexes a few Go files of several chunks each and returns
// the index and every chunk of the snapshot, file by file.
func spanFixture(t *testing.T) (*fixture, []string, []chunk.Meta) {
	t.Helper()
	root := t.TempDir()
	for f := range 3 {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n", f)
		for fn := range 6 {
			fmt.Fprintf(&b, "\n// F%d_%d adds.\nfunc F%d_%d(a, b int) int {\n", f, fn, f, fn)
			if fn == 2 {
				b.WriteString("\tconst k = \"AKIAIOSFODNN7EXAMPLE\"\n") // masked in what a search shows
			}
			for l := range 12 {
				fmt.Fprintf(&b, "\ta += b * %d // line %d\n", l, l)
			}
			b.WriteString("\treturn a\n}\n")
		}
		writeTestFile(t, filepath.Join(root, fmt.Sprintf("p%d", f), "f.go"), b.String())
	}
	f := openFixture(t, root, t.TempDir())
	t.Cleanup(func() { f.ix.Close() })
	s := f.ix.Snapshot()
	var paths []string
	var metas []chunk.Meta
	for p, e := range s.st.files {
		for _, c := range e.Chunks() {
			paths, metas = append(paths, p), append(metas, c)
		}
	}
	if len(metas) < 6 {
		t.Fatalf("the fixture has %d chunks, want several per file", len(metas))
	}
	return f, paths, metas
}

// uncachedTexts is chunkTexts on an index whose cache is empty.
func uncachedTexts(s *Snapshot, paths []string, metas []chunk.Meta) [][]byte {
	s.ix.spans.clear()
	defer s.ix.spans.clear()
	return s.chunkTexts(len(metas), func(i int) (string, chunk.Meta) { return paths[i], metas[i] })
}

func TestChunkTextsFromCacheAreTheReadOnes(t *testing.T) {
	f, paths, metas := spanFixture(t)
	s := f.ix.Snapshot()
	at := func(i int) (string, chunk.Meta) { return paths[i], metas[i] }
	want := uncachedTexts(s, paths, metas)
	first := s.chunkTexts(len(metas), at) // reads and keeps
	if f.ix.spans.bytes == 0 {
		t.Fatal("nothing kept after a read")
	}
	// Each chunk alone, then all again: from the cache.
	for i := range metas {
		got := s.chunkTexts(1, func(int) (string, chunk.Meta) { return paths[i], metas[i] })
		if !bytes.Equal(got[0], want[i]) {
			t.Errorf("chunk %d of %s alone: %q, read %q", i, paths[i], got[0], want[i])
		}
	}
	again := s.chunkTexts(len(metas), at)
	for i := range metas {
		if !bytes.Equal(first[i], want[i]) || !bytes.Equal(again[i], want[i]) {
			t.Errorf("chunk %d of %s: first %q, again %q, read %q", i, paths[i], first[i], again[i], want[i])
		}
		if c := chunkFromDisk(t, f.root, paths[i], metas[i]); !bytes.Equal(want[i], c) {
			t.Errorf("chunk %d of %s: read %q, the file holds %q", i, paths[i], want[i], c)
		}
	}
}

func chunkFromDisk(t *testing.T, root, p string, c chunk.Meta) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return data[c.Off : c.Off+c.Len]
}

// A file changed after its chunks were kept (same size, new bytes and
// time; or a symlink in its place) is read as the uncached path reads it.
func TestChunkTextsCacheChecksTheFile(t *testing.T) {
	f, paths, metas := spanFixture(t)
	s := f.ix.Snapshot() // the generation that indexed the old bytes
	at := func(i int) (string, chunk.Meta) { return paths[i], metas[i] }
	s.chunkTexts(len(metas), at)
	changed := paths[0]
	abs := filepath.Join(f.root, filepath.FromSlash(changed))
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, bytes.ReplaceAll(data, []byte("adds"), []byte("ADDS")), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(abs, later, later); err != nil {
		t.Fatal(err)
	}
	check := func(what string) {
		t.Helper()
		got := s.chunkTexts(len(metas), at)
		want := uncachedTexts(s, paths, metas)
		for i := range metas {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("%s: chunk %d of %s: %q, uncached %q", what, i, paths[i], got[i], want[i])
			}
		}
		if !slices.ContainsFunc(want, func(b []byte) bool { return bytes.Contains(b, []byte("ADDS")) }) {
			t.Errorf("%s: no chunk read holds the new bytes", what)
		}
	}
	s.chunkTexts(len(metas), at) // keeps the others again
	check("rewritten")
	other := filepath.Join(f.root, "other.go")
	if err := os.WriteFile(other, bytes.ReplaceAll(data, []byte("adds"), []byte("ADDS")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, abs); err != nil {
		t.Skip("no symlinks here:", err)
	}
	check("a symlink")
}

func TestSpanCacheKeepsItsBound(t *testing.T) {
	var sc spanCache
	text := bytes.Repeat([]byte("x"), maxSpanCacheBytes/20)
	for i := range 100 {
		sc.put(fmt.Sprintf("f%d.go", i), int64(len(text)), 1, 0, text)
		if sc.bytes > maxSpanCacheBytes {
			t.Fatalf("after %d puts the cache holds %d bytes, over %d", i+1, sc.bytes, maxSpanCacheBytes)
		}
	}
	if len(sc.m) != sc.lru.Len() || len(sc.m)*len(text) != sc.bytes {
		t.Errorf("%d keys, %d in the list, %d bytes of %d each", len(sc.m), sc.lru.Len(), sc.bytes, len(text))
	}
	if el := sc.m[spanKey{"f99.go", int64(len(text)), 1, 0, len(text)}]; el == nil {
		t.Error("the last text put is not kept")
	}
	if el := sc.m[spanKey{"f0.go", int64(len(text)), 1, 0, len(text)}]; el != nil {
		t.Error("the first text put is still kept")
	}
}

// chunkText, which masks secrets in what it returns, gives the same text
// from the cache as from disk, and masking it leaves the kept text as
// read.
func TestChunkTextFromCacheIsMaskedAlike(t *testing.T) {
	f, paths, metas := spanFixture(t)
	s := f.ix.Snapshot()
	masked := 0
	for i := range metas {
		s.ix.spans.clear()
		want := s.chunkText(paths[i], metas[i]) // read, kept
		for range 2 {
			if got := s.chunkText(paths[i], metas[i]); !bytes.Equal(got, want) {
				t.Errorf("chunk %d of %s from the cache: %q, read %q", i, paths[i], got, want)
			}
		}
		raw := chunkFromDisk(t, f.root, paths[i], metas[i])
		if !bytes.Equal(want, raw) {
			masked++
		}
		kept := s.chunkTexts(1, func(int) (string, chunk.Meta) { return paths[i], metas[i] })
		if !bytes.Equal(kept[0], raw) {
			t.Errorf("chunk %d of %s: kept %q, the file holds %q", i, paths[i], kept[0], raw)
		}
	}
	if masked == 0 {
		t.Error("no chunk had a secret masked: the fixture's key is not seen as one")
	}
}
