package index

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"
)

func TestQueryPairs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q    string
		want [][2]string
	}{
		// Stop words, '/' and '-' between words; the same pair once.
		{"How does the reader/writer lock keep new readers from new readers?",
			[][2]string{{"reader", "writer"}, {"writer", "lock"}, {"lock", "keep"}, {"keep", "new"}, {"new", "reader"}}},
		// A comma ends a run; a word written as code breaks it.
		{"where is the idle pool, connection reuse in http.Transport code", [][2]string{{"idl", "pool"}, {"connect", "reus"}}},
		{"Accept-Language header", [][2]string{{"accept", "languag"}, {"languag", "header"}}},
		// A parenthesis opens and closes a run.
		{"idle pool (connection reuse) timeout", [][2]string{{"idl", "pool"}, {"connect", "reus"}}},
		{"lock", nil},
	} {
		if got := queryPairs(c.q); !slices.Equal(got, c.want) {
			t.Errorf("queryPairs(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestHoldsPair(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		a, b string
		want bool
	}{
		{"A RWMutex is a reader/writer mutual exclusion lock.", "reader", "writer", true},
		{"excludes new\n\t// readers from acquiring", "new", "reader", true},
		{"rw.readerWait.Add(r)", "reader", "wait", true},
		{"the readers wait", "reader", "wait", true},
		{"a reader and a writer", "reader", "writer", false},
		{"threader writer", "reader", "writer", false},
		{"reader" + string(bytes.Repeat([]byte(" "), maxPairGap+1)) + "writer", "reader", "writer", false},
		{"reader", "reader", "writer", false},
	} {
		low := bytes.ToLower([]byte(c.text))
		if got := holdsPair([]byte(c.text), low, c.a, c.b); got != c.want {
			t.Errorf("holdsPair(%q, %q, %q) = %v, want %v", c.text, c.a, c.b, got, c.want)
		}
	}
}

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
