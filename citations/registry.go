package citations

import (
	"strings"
	"sync"

	"github.com/zeebo/blake3"
)

// Evidence is one span a tool returned to the model: lines Start..End
// (1-based, inclusive) of Path, with the exact text shown and its hash.
type Evidence struct {
	ID     int
	Path   string
	Start  int
	End    int
	Text   string
	Hash   [32]byte
	Symbol string

	forgotten bool
}

// Registry numbers the evidence of one answer. Numbers start at 1 and are
// what the model cites as [n]. It is safe for concurrent use.
type Registry struct {
	mu    sync.Mutex
	items []Evidence
	byKey map[evidenceKey]int
}

type evidenceKey struct {
	path       string
	start, end int
	hash       [32]byte
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byKey: map[evidenceKey]int{}} }

// Hash is the hash used for evidence text.
func Hash(text string) [32]byte { return blake3.Sum256([]byte(text)) }

// Add registers the lines start..end of path whose text is text and returns
// the evidence number. The same span with the same text keeps its number.
func (r *Registry) Add(path string, start, end int, text, symbol string) int {
	h := Hash(text)
	k := evidenceKey{path, start, end, h}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byKey == nil {
		r.byKey = map[evidenceKey]int{}
	}
	if id, ok := r.byKey[k]; ok {
		if symbol != "" && r.items[id-1].Symbol == "" {
			r.items[id-1].Symbol = symbol
		}
		return id
	}
	id := len(r.items) + 1
	r.items = append(r.items, Evidence{ID: id, Path: path, Start: start, End: end, Text: text, Hash: h, Symbol: symbol})
	r.byKey[k] = id
	return id
}

// Get returns evidence number id.
func (r *Registry) Get(id int) (Evidence, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 1 || id > len(r.items) || r.items[id-1].forgotten {
		return Evidence{}, false
	}
	return r.items[id-1], true
}

// Len is the number of evidence items registered.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.items)
}

// All returns a copy of every item in number order.
func (r *Registry) All() []Evidence {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Evidence(nil), r.items...)
}

// Forget makes evidence id uncitable (its text never reached the model,
// for example because a tool result was cut). Its number is not reused.
func (r *Registry) Forget(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 1 || id > len(r.items) {
		return
	}
	r.items[id-1].forgotten = true
	delete(r.byKey, evidenceKey{r.items[id-1].Path, r.items[id-1].Start, r.items[id-1].End, r.items[id-1].Hash})
}

// Narrow makes evidence id cover only lines Start..end, whose text is
// text (what reached the model when a tool result was cut inside it):
// a citation of the lines cut off then names nothing. An end before Start
// forgets the evidence.
func (r *Registry) Narrow(id, end int, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 1 || id > len(r.items) {
		return
	}
	ev := &r.items[id-1]
	if end >= ev.End {
		return
	}
	delete(r.byKey, evidenceKey{ev.Path, ev.Start, ev.End, ev.Hash})
	if end < ev.Start {
		ev.forgotten = true
		return
	}
	ev.End, ev.Text, ev.Hash = end, text, Hash(text)
	k := evidenceKey{ev.Path, ev.Start, ev.End, ev.Hash}
	if _, taken := r.byKey[k]; !taken {
		r.byKey[k] = id
	}
}

// covering finds the evidence that contains lines lo..hi of path p (p may
// be a suffix of the evidence path after a '/'; with uri, p is absolute
// and ends with the evidence path): the smallest such span, 0 when none.
// It is how "[server.go:10-12]" becomes a checked citation.
func (r *Registry) covering(p string, lo, hi int, uri bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	best, bestLen := 0, 0
	for i := range r.items {
		ev := &r.items[i]
		same := ev.Path == p || strings.HasSuffix(ev.Path, "/"+p)
		if uri {
			same = strings.HasSuffix(p, "/"+ev.Path)
		}
		if ev.forgotten || !same {
			continue
		}
		if ev.Start <= lo && hi <= ev.End && (best == 0 || ev.End-ev.Start < bestLen) {
			best, bestLen = ev.ID, ev.End-ev.Start
		}
	}
	return best
}
