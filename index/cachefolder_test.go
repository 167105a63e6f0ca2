package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnwritableCacheFolderFallsBackToATemporaryIndex(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	// A cache folder that cannot be made (a file is in the way; chmod
	// does not stop root, which CI runs as).
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := openFixture(t, root, filepath.Join(file, "cache"))
	tmp := f.ix.roots[0].cache
	if hits := search(t, f.ix, "TotalPrice"); len(hits) == 0 || hits[0].Path != "cart/cart.go" {
		t.Errorf("search in the temporary index: %v", hits)
	}
	if log := f.log.String(); !strings.Contains(log, "the cache folder cannot be written") || !strings.Contains(log, "using a temporary index") {
		t.Errorf("log does not say why: %s", log)
	}
	f.ix.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary index %s left behind: %v", tmp, err)
	}

	// A cache in use by another askls says so.
	cache := t.TempDir()
	first := openFixture(t, root, cache)
	defer first.ix.Close()
	second := openFixture(t, root, cache)
	defer second.ix.Close()
	if log := second.log.String(); !strings.Contains(log, "in use by another askls") {
		t.Errorf("second open: %s", log)
	}
}
