package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
)

// damageSegments overwrites 32 runs of 512 random bytes at random places
// in every segment of the index in cache (bleve/store/*.zap). A live
// index's merger may replace segments meanwhile, so it goes over the store
// again until every segment there has been damaged.
func damageSegments(t *testing.T, cache string, seed int64) int {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	done := map[string]bool{}
	for range 100 {
		zaps, _ := filepath.Glob(filepath.Join(cache, store.BleveDir, "store", "*.zap"))
		if len(zaps) == 0 {
			t.Fatalf("no segment under %s", cache)
		}
		fresh := 0
		for _, z := range zaps {
			if done[z] {
				continue
			}
			fresh++
			if damageFile(t, z, rng) {
				done[z] = true
			}
		}
		if fresh == 0 {
			return len(zaps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the segments under %s kept changing", cache)
	return 0
}

// damageFile overwrites random runs of path; false if it went away.
func damageFile(t *testing.T, path string, rng *rand.Rand) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	buf := make([]byte, 512)
	for range 32 {
		rng.Read(buf)
		off := int64(0)
		if info.Size() > int64(len(buf)) {
			off = rng.Int63n(info.Size() - int64(len(buf)))
		}
		n := min(int64(len(buf)), info.Size()-off)
		if _, err := f.WriteAt(buf[:n], off); err != nil {
			t.Fatal(err)
		}
	}
	return true
}

// searchNoPanic searches and turns a panic into a test failure.
func searchNoPanic(t *testing.T, ix *Index, q string) (hits []Hit) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Search(%q) panicked: %v", q, p)
		}
	}()
	hits, err := ix.Snapshot().Search(context.Background(), q, 10, Filter{})
	if err != nil {
		t.Fatalf("Search(%q): %v", q, err)
	}
	return hits
}

// TestDamagedSegmentsAreRebuilt: segments damaged at random (32
// overwrites of 512 bytes in every segment, 4 seeds) are found when the
// index opens and rebuilt with one log line; search answers after it,
// without a panic. Before, the index opened as "unchanged" and searches
// panicked (slice bounds out of range in zapx) until the cache was
// deleted by hand.
func TestDamagedSegmentsAreRebuilt(t *testing.T) {
	root := t.TempDir()
	writeGenerated(t, root, 200, "z", 1)
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			cache := t.TempDir()
			f := openFixture(t, root, cache)
			rootCache := f.ix.roots[0].cache
			f.ix.Close()
			// A second open checks the new segments and records them as
			// sound (segments.ok): the damage must be found all the same.
			f = openFixture(t, root, cache)
			f.ix.Close()
			if b, err := os.ReadFile(filepath.Join(rootCache, store.VerifiedFile)); err != nil || !strings.Contains(string(b), ".zap ") {
				t.Fatalf("no segment recorded as checked: %q %v", b, err)
			}
			damageSegments(t, rootCache, seed)
			f = openFixture(t, root, cache)
			defer f.ix.Close()
			if n := strings.Count(f.log.String(), "rebuilding the index"); n != 1 {
				t.Errorf("want one rebuild line; log:\n%s", f.log)
			}
			for _, i := range []int{0, 1, 150} {
				if hits := searchNoPanic(t, f.ix, marker("z", i)); len(hits) == 0 {
					t.Errorf("file %d is not found after the rebuild", i)
				}
			}
		})
	}
}
