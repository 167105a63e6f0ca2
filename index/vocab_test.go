package index

import (
	"path/filepath"
	"testing"

	"github.com/askls/askls/index/store"
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

// Every word code writes for a plain word is a term as the index
// analyses it, or it could never match; every word of the table is
// kept, and its inflections meet it.
func TestVocabIsAnalysed(t *testing.T) {
	if len(vocab) != 32 {
		t.Errorf("vocab has %d terms, want 32 (one per word of the table)", len(vocab))
	}
	for _, w := range []string{"connections", "Connection", "configurations", "locks", "directories", "initialization"} {
		if toks := store.AnalyzeCode([]byte(w), nil); len(toks) != 1 || len(vocab[string(toks[0].Term)]) == 0 {
			t.Errorf("%q has no entry in vocab (analysed as %v)", w, toks)
		}
	}
	for word, alts := range vocab {
		for _, a := range alts {
			toks := store.AnalyzeCode([]byte(a), nil)
			if len(toks) != 1 || string(toks[0].Term) != a {
				t.Errorf("vocab[%q]: %q is analysed as %v", word, a, toks)
			}
		}
	}
}
