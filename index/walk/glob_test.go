package walk

import (
	"fmt"
	"testing"
)

// TestGlobCacheIsBounded: globs come from clients and models; the cache
// of parsed ones stays under maxCachedGlobs.
func TestGlobCacheIsBounded(t *testing.T) {
	for i := 0; i < 3*maxCachedGlobs; i++ {
		NewGlob(fmt.Sprintf("**/f%d.go", i))
	}
	pathGlobMu.Lock()
	n := len(pathGlobCache)
	pathGlobMu.Unlock()
	if n > maxCachedGlobs {
		t.Errorf("%d globs cached, bound %d", n, maxCachedGlobs)
	}
}
