package index

import (
	"path/filepath"
	"testing"
)

// A question's plain word also finds the word code writes for it:
// "connections" finds the Conns of maxIdleConnsPerHost, where the other
// file holds the question's other words more often but no connection.
func TestSearchFindsCodeWordsForPlainWords(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "net", "pool.go"), `package net

// DefaultMaxIdleConnsPerHost is how many idle conns are kept per host.
const DefaultMaxIdleConnsPerHost = 2

func maxIdleConnsPerHost(v int) int {
	if v != 0 {
		return v
	}
	return DefaultMaxIdleConnsPerHost
}
`)
	writeTestFile(t, filepath.Join(root, "net", "timer.go"), `package net

// DefaultIdleTimersPerHost is how many idle timers are kept per host.
const DefaultIdleTimersPerHost = 2

func idleTimersPerHost(v int) int {
	if v != 0 {
		return v
	}
	return DefaultIdleTimersPerHost
}
`)
	f := openFixture(t, root, t.TempDir())
	defer f.ix.Close()
	q := "what is the default limit of idle connections kept for each host"
	if files := firstFiles(search(t, f.ix, q)); len(files) == 0 || files[0] != "net/pool.go" {
		t.Errorf("Search(%q) files = %v, want net/pool.go first", q, files)
	}
}
