package lsp

import (
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedIndexIsReopenedAfterAPanic: after a request panicked, the
// server checks its index's segments; damaged ones (here overwritten on
// disk while the server runs) make it reopen the index, which rebuilds it
// with one log line, and asks are answered from the rebuilt index.
func TestDamagedIndexIsReopenedAfterAPanic(t *testing.T) {
	cache := t.TempDir()
	e, s := captureServer(t, editorSetup{opts: Options{CacheDir: cache}})
	e.waitIndexed()
	// Scorch may merge segments away between the glob and the writes: damage
	// those still there, and glob again until one was.
	rng := rand.New(rand.NewSource(3))
	damaged := 0
	for try := 0; damaged == 0 && try < 20; try++ {
		zaps, _ := filepath.Glob(filepath.Join(cache, "*", "bleve", "store", "*.zap"))
		for _, z := range zaps {
			if damageFile(t, z, rng) {
				damaged++
			}
		}
	}
	if damaged == 0 {
		t.Fatalf("no segment under %s to damage", cache)
	}
	old := s.ws.Current()
	s.ws.CheckStore() // what the queue runs after a handler's panic
	e.waitFor("window/logMessage", func(p json.RawMessage) bool {
		return strings.Contains(string(p), "rebuilding the index") && strings.Contains(string(p), "damaged")
	})
	e.waitIndexedN(2)
	res, err := e.ask(map[string]any{"question": "A shop with a cache whose entries expire"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ws.Current() == old || len(res.Citations) == 0 {
		t.Errorf("after the rebuild: same index %v, %d citations", s.ws.Current() == old, len(res.Citations))
	}
}

// damageFile overwrites 32 random runs of the file at path; false when
// the file is gone (merged away).
func damageFile(t *testing.T, path string, rng *rand.Rand) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	for range 32 {
		rng.Read(buf)
		off := rng.Int63n(max(1, info.Size()-int64(len(buf))))
		f.WriteAt(buf[:min(int64(len(buf)), info.Size()-off)], off)
	}
	return true
}
