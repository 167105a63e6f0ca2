package lsp

import (
	"bytes"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
)

// maxAnswers bounds the answers kept for lenses and askls.showAnswer.
const maxAnswers = 32

// answer is one kept answer: its result as sent and a live anchor per
// citation.
type answer struct {
	id       string
	question string
	created  time.Time
	result   *askResult
	cites    []*cite
}

// cite is one citation that follows its code.
type cite struct {
	n      int
	uri    protocol.DocumentURI // canonical
	anchor *citations.Anchor    // its Content() is the file as the editor has it
}

// answers keeps recent answers, newest last. Safe for concurrent use; the
// methods that move anchors are called with server.editMu held so that
// anchors see every edit exactly once.
type answers struct {
	mu   sync.Mutex
	list []*answer
	max  int
}

func newAnswers(max int) *answers { return &answers{max: max} }

// add keeps a, dropping the oldest answers beyond the bound; it returns
// the URIs of the dropped answers' citations.
func (as *answers) add(a *answer) []protocol.DocumentURI {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.list = append(as.list, a)
	var dropped []protocol.DocumentURI
	for len(as.list) > as.max {
		for _, c := range as.list[0].cites {
			dropped = append(dropped, c.uri)
		}
		as.list[0] = nil
		as.list = as.list[1:]
	}
	return dropped
}

func (as *answers) get(id string) (*answer, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, a := range as.list {
		if a.id == id {
			return a, true
		}
	}
	return nil, false
}

func (as *answers) len() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return len(as.list)
}

// applyEdits moves every citation in u through the edits made to the
// document; content is the document after them. It reports whether any
// citation was there.
func (as *answers) applyEdits(u protocol.DocumentURI, edits []edit, content []byte) bool {
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
				c.anchor.Apply(citations.Edit{StartByte: e.start, EndByte: e.end, NewText: e.text})
			}
			if !bytes.Equal(c.anchor.Content(), content) {
				// Should not happen; keep the citation honest if it does.
				c.anchor = relocate(c.anchor, content)
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
			if c.uri == u && !bytes.Equal(c.anchor.Content(), content) {
				c.anchor = relocate(c.anchor, content)
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
			if c.uri == u && !c.anchor.Citation().Stale {
				cc := c.anchor.Citation()
				cc.Stale = true
				c.anchor = citations.NewAnchor(cc, c.anchor.Content())
				moved = true
			}
		}
	}
	return moved
}

// citedRange is one citation as lenses and diagnostics show it.
type citedRange struct {
	answerID string
	question string
	c        citations.Citation
	rng      protocol.Range
}

// in returns the citations in u, newest answer first.
func (as *answers) in(u protocol.DocumentURI) []citedRange {
	as.mu.Lock()
	defer as.mu.Unlock()
	var out []citedRange
	for i := len(as.list) - 1; i >= 0; i-- {
		a := as.list[i]
		for _, c := range a.cites {
			if c.uri != u {
				continue
			}
			cc := c.anchor.Citation()
			loc := citations.Location(cc, string(u), c.anchor.Content())
			out = append(out, citedRange{answerID: a.id, question: a.question, c: cc, rng: loc.Range})
		}
	}
	return out
}

// uris lists every file with a citation.
func (as *answers) uris() []protocol.DocumentURI {
	as.mu.Lock()
	defer as.mu.Unlock()
	seen := map[protocol.DocumentURI]bool{}
	var out []protocol.DocumentURI
	for _, a := range as.list {
		for _, c := range a.cites {
			if !seen[c.uri] {
				seen[c.uri] = true
				out = append(out, c.uri)
			}
		}
	}
	return out
}

// relocate re-anchors a citation in new content that was not reached by
// edits: the cited text is looked for at its old offset, then at the
// occurrence nearest to it; if it is gone the citation is stale and keeps
// its line numbers (clamped).
func relocate(a *citations.Anchor, content []byte) *citations.Anchor {
	c := a.Citation()
	old := a.Content()
	if c.StartByte < 0 || c.EndByte > len(old) || c.StartByte > c.EndByte {
		c.StartByte, c.EndByte = citations.LineSpan(old, c.Start, c.End)
	}
	text := old[c.StartByte:c.EndByte]
	best := -1
	if c.EndByte <= len(content) && bytes.Equal(content[c.StartByte:c.EndByte], text) {
		best = c.StartByte
	} else if len(text) > 0 {
		for from := 0; ; {
			i := bytes.Index(content[from:], text)
			if i < 0 {
				break
			}
			at := from + i
			if atLineStart(content, at) && (best < 0 || abs(at-c.StartByte) < abs(best-c.StartByte)) {
				best = at
			}
			from = at + 1
		}
	}
	if best >= 0 {
		c.StartByte, c.EndByte = best, best+len(text)
	} else {
		c.Stale = true
		c.StartByte, c.EndByte = citations.LineSpan(content, c.Start, c.End)
	}
	c.Start = bytes.Count(content[:c.StartByte], []byte{'\n'}) + 1
	c.End = c.Start + bytes.Count(content[c.StartByte:c.EndByte], []byte{'\n'})
	return citations.NewAnchor(c, content)
}

func atLineStart(b []byte, i int) bool { return i == 0 || b[i-1] == '\n' }

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
