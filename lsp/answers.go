package lsp

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/lsp/buffer"
	"github.com/askls/askls/lsp/settings"
)

// maxAnswers bounds the answers kept for askls.showAnswer. Of these, only
// the newest Config.KeepCitations show their citations (lenses, hints).
const maxAnswers = settings.MaxAnswers

// answer is one kept answer: its result as sent and a live anchor per
// citation.
type answer struct {
	id       string
	label    string // "q3": the third answer of this server, for people
	question string
	created  time.Time
	result   *askResult
	cites    []*cite
	cleared  bool // askls.clearCitations hid its citations
}

// cite is one citation of a kept answer, following its code.
type cite struct {
	n   int
	uri protocol.DocumentURI // canonical
	*citations.Tracked
}

// answers keeps recent answers, newest last. Safe for concurrent use; the
// methods that move anchors are called with server.editMu held so that
// anchors see every edit exactly once.
type answers struct {
	mu   sync.Mutex
	list []*answer
	max  int
	seq  int // answers added so far
}

func newAnswers(max int) *answers { return &answers{max: max} }

// add keeps a, labels it ("q1", "q2", ...) and drops the oldest answers
// beyond the bound.
func (as *answers) add(a *answer) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.seq++
	a.label = fmt.Sprintf("q%d", as.seq)
	as.list = append(as.list, a)
	for len(as.list) > as.max {
		as.list[0] = nil
		as.list = as.list[1:]
	}
}

// last returns the newest answer.
func (as *answers) last() (*answer, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if len(as.list) == 0 {
		return nil, false
	}
	return as.list[len(as.list)-1], true
}

// find returns the answer with this id or label ("q3").
func (as *answers) find(key string) (*answer, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, a := range as.list {
		if a.id == key || a.label == key {
			return a, true
		}
	}
	return nil, false
}

// clear hides the citations of the answer with this id or label, or of
// every answer when key is "". It returns the labels of the answers whose
// citations were showing (given keep, as in visibleLocked) and whether key
// named a kept answer.
func (as *answers) clear(key string, keep int) (cleared []string, found bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	visible := as.visibleLocked(keep)
	for i, a := range as.list {
		if key != "" && a.id != key && a.label != key {
			continue
		}
		found = true
		if visible[i] {
			cleared = append(cleared, a.label)
		}
		a.cleared = true
	}
	return cleared, found || key == ""
}

// visibleLocked reports, per kept answer, whether its citations show: the
// newest keep answers that were not cleared. Caller holds mu.
func (as *answers) visibleLocked(keep int) []bool {
	out := make([]bool, len(as.list))
	for i := len(as.list) - 1; i >= 0 && i >= len(as.list)-keep; i-- {
		out[i] = !as.list[i].cleared
	}
	return out
}

func (as *answers) len() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return len(as.list)
}

// applyEdits moves every citation in u through the edits made to the
// document; t is the document after them (joined only when a citation is
// there). It reports whether any citation was there.
func (as *answers) applyEdits(u protocol.DocumentURI, edits []buffer.Edit, t *buffer.Text) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	any := false
	for _, a := range as.list {
		for _, c := range a.cites {
			if c.uri != u {
				continue
			}
			any = true
			for _, e := range edits {
				c.Anchor.Apply(citations.Edit{StartByte: e.Start, EndByte: e.End, NewText: e.Text})
			}
			if content := t.Bytes(); !bytes.Equal(c.Anchor.Content(), content) {
				// Should not happen; keep the citation honest if it does.
				c.Anchor = citations.Relocate(c.Anchor, content)
			}
		}
	}
	return any
}

// resync moves the citations in u to content when the file changed by
// other means than edits (reopened, changed on disk).
func (as *answers) resync(u protocol.DocumentURI, content []byte) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	moved := false
	for _, a := range as.list {
		for _, c := range a.cites {
			if c.uri == u && (c.Gone || !bytes.Equal(c.Anchor.Content(), content)) {
				c.Anchor = citations.Relocate(c.Anchor, content)
				c.Gone = false
				moved = true
			}
		}
	}
	return moved
}

// markStale marks every citation in u stale (the file is gone).
func (as *answers) markStale(u protocol.DocumentURI) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	moved := false
	for _, a := range as.list {
		for _, c := range a.cites {
			if c.uri == u && !c.Gone {
				c.Gone = true
				moved = true
			}
		}
	}
	return moved
}

// citedRange is one citation as lenses and diagnostics show it.
type citedRange struct {
	answerID string
	label    string
	question string
	c        citations.Citation
	rng      protocol.Range
}

// in returns the showing citations in u (see visibleLocked), newest answer
// first.
func (as *answers) in(u protocol.DocumentURI, keep int) []citedRange {
	as.mu.Lock()
	defer as.mu.Unlock()
	var out []citedRange
	visible := as.visibleLocked(keep)
	for i := len(as.list) - 1; i >= 0; i-- {
		a := as.list[i]
		if !visible[i] {
			continue
		}
		for _, c := range a.cites {
			if c.uri != u {
				continue
			}
			cc := c.Now()
			loc := citationLocation(cc, string(u), c.Anchor.Content())
			out = append(out, citedRange{answerID: a.id, label: a.label, question: a.question, c: cc, rng: loc.Range})
		}
	}
	return out
}

// uris lists every file with a showing citation.
func (as *answers) uris(keep int) []protocol.DocumentURI {
	as.mu.Lock()
	defer as.mu.Unlock()
	seen := map[protocol.DocumentURI]bool{}
	var out []protocol.DocumentURI
	visible := as.visibleLocked(keep)
	for i, a := range as.list {
		if !visible[i] {
			continue
		}
		for _, c := range a.cites {
			if !seen[c.uri] {
				seen[c.uri] = true
				out = append(out, c.uri)
			}
		}
	}
	return out
}
