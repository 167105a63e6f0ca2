package index

import (
	"path/filepath"
	"testing"
)

// Of two chunks that hold the same words of a question, the one that
// writes the question's word pairs side by side ranks first
// (Ranking.ProximityBoost), though the other says the words more often.
func TestSearchPrefersWordsSideBySide(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "queue", "scatter.go"), `package queue

// drain: each reader waits; a writer keeps the queue lock while new work
// arrives, and a starving goroutine is woken by readers, readers, readers.
// lock: a goroutine; writer: a goroutine; wait: a starving writer.
func drain(readers, writers int) { lock(); keep(readers); lock() }
`)
	writeTestFile(t, filepath.Join(root, "sync", "rw.go"), `package sync

// take takes the reader/writer lock: once a writer waits, new readers
// block, so a stream of readers cannot keep a waiting writer goroutine
// starving.
func take() {
	state := 0
	for state < 100 {
		state += step(state)
	}
	if state > 200 {
		panic("sync: unbalanced state counter")
	}
}
`)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	q := "how does the reader/writer lock stop new readers starving a waiting writer goroutine"
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != "sync/rw.go" {
		t.Errorf("Search(%q) files = %v, want sync/rw.go first", q, files)
	}
}
