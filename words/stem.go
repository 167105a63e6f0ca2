package words

import (
	"bytes"
	"sync"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// Stem reduces a plain English word to its Porter stem ("compares",
// "compared" → "compar"), so that questions match code comments and
// identifier parts in other forms. Only lower-case ASCII words of 4 to 20
// letters are stemmed; identifiers with digits or underscores, and the
// whole form of a compound identifier, stay as they are (the caller
// passes them through whole, and they rarely end in a suffix).
func Stem(term []byte) []byte {
	if len(term) < 4 || len(term) > 20 {
		return term
	}
	for _, c := range term {
		if c < 'a' || c > 'z' {
			return term
		}
	}
	switch term[len(term)-1] {
	case 's', 'd', 'g', 'y', 'r', 'n', 'e', 'l', 't':
	default:
		return term
	}
	if out, ok := stems.get(term); ok {
		if out == nil {
			return term
		}
		return out
	}
	out := []byte(string(porterstemmer.StemWithoutLowerCasing([]rune(string(term)))))
	if bytes.Equal(out, term) {
		out = nil
	}
	stems.put(term, out)
	if out == nil {
		return term
	}
	return out
}

// stemCache remembers the stems of words seen (nil: the word is its own
// stem): a tree's vocabulary is small and its words repeat, and the
// stemmer allocates. It stops growing at stemCacheMax words. Safe for
// concurrent use.
type stemCache struct {
	mu sync.RWMutex
	m  map[string][]byte
}

const stemCacheMax = 1 << 17

var stems = stemCache{m: map[string][]byte{}}

func (c *stemCache) get(word []byte) ([]byte, bool) {
	c.mu.RLock()
	out, ok := c.m[string(word)]
	c.mu.RUnlock()
	return out, ok
}

func (c *stemCache) put(word, out []byte) {
	c.mu.Lock()
	if len(c.m) < stemCacheMax {
		c.m[string(word)] = out
	}
	c.mu.Unlock()
}

// reset empties the cache. After a bulk load its entries, made one at a
// time among the load's garbage, keep much of the heap's pages in use
// (about 35 MB of heap after a first build of GOROOT/src); emptied, it
// refills from the words later edits and queries use.
func (c *stemCache) reset() {
	c.mu.Lock()
	c.m = map[string][]byte{}
	c.mu.Unlock()
}

// ResetStems empties the cache of stems. After a bulk load its entries,
// made one at a time among the load's garbage, keep much of the heap's
// pages in use; emptied, it refills from the words later edits and
// queries use.
func ResetStems() { stems.reset() }
