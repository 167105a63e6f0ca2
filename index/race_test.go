package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/index/store"
)

// TestCrashRecoveryWithTouchedFilesHasNoRace: a journal lists half the
// files (in flight at a crash) while the other half were touched (same
// content, new mtime). The sync's readers decide about the touched files
// while its submitters purge the suspect ones; run with -race, this
// caught the readers reading the suspect set without a lock.
func TestCrashRecoveryWithTouchedFilesHasNoRace(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeGenerated(t, root, 600, "a", 1)
	f := openFixture(t, root, cache)
	f.ix.Close()

	var rels []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil
	})
	var journal strings.Builder
	later := time.Now().Add(time.Hour)
	for i, rel := range rels {
		if i%2 == 0 {
			journal.WriteString(rel + "\n")
		} else if err := os.Chtimes(filepath.Join(root, rel), later, later); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.ix.roots[0].cache, store.JournalFile), []byte(journal.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f = openFixture(t, root, cache)
	defer f.ix.Close()
	if f.stats.Files != len(rels) {
		t.Fatalf("after recovery the index holds %d files, want %d (stats %+v)", f.stats.Files, len(rels), f.stats)
	}
	if hits, err := f.ix.Snapshot().Search(context.Background(), marker("a", 0), 5, Filter{}); err != nil || len(hits) == 0 {
		t.Errorf("a suspect file is not searchable after recovery: %v %+v", err, hits)
	}
}
