package rank

import (
	"bytes"
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
		tm := newTermMatcher(nil, nil, [][2]string{{c.a, c.b}})
		tm.scan([]byte(c.text), nil, nil)
		if got := tm.held[0]; got != c.want {
			t.Errorf("holdsPair(%q, %q, %q) = %v, want %v", c.text, c.a, c.b, got, c.want)
		}
	}
}
