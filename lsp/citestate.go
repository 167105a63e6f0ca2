package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/workspace"
)

// Where a citation is now. Every citation carries the blake3 hash of the
// lines it cited (wireCitation.Hash). When those lines are no longer where
// they were — edits above them, a thread reopened after the file changed,
// a buffer whose unsaved edits were thrown away — the citation is
// re-anchored to the nearest place in the file whose lines hash the same.
// It is stale only when no such place exists: the code is gone or changed.

// cmdLocate resolves one citation to where its code is now, at the moment
// an editor jumps to it.
const cmdLocate = "askls.locate"

// locateArgs is askls.locate's argument: a citation as an askls/ask result,
// askls.showAnswer or askls.openThread gave it, and, for a kept answer,
// the answer's id or label and the citation's number.
type locateArgs struct {
	Location protocol.Location `json:"location"`
	Hash     string            `json:"hash"`
	Answer   string            `json:"answer,omitempty"`
	N        int               `json:"n,omitempty"`
}

// locateResult is where the cited code is now.
type locateResult struct {
	Location protocol.Location `json:"location"`
	Stale    bool              `json:"stale"`
}

// commandLocate is askls.locate [{"location", "hash", "answer"?, "n"?}].
// A kept answer's citation is where its anchor has followed the edits;
// any other (a thread's turn, an answer this server no longer keeps, one
// from another session) is re-anchored by its hash from the lines it
// names. The file is read as the editor has it (open buffers) or from
// disk.
func (s *server) commandLocate(ctx context.Context, args []json.RawMessage, release func()) (any, error) {
	const usage = `arguments are [{"location": Location, "hash": "…", "answer"?: id, "n"?: n}] (a citation as askls/ask returns it)`
	if len(args) != 1 {
		return nil, invalidParams("%s: %s", cmdLocate, usage)
	}
	var p locateArgs
	if err := json.Unmarshal(args[0], &p); err != nil {
		return nil, invalidParams("%s: %s: %v", cmdLocate, usage, err)
	}
	if p.Answer != "" && p.N > 0 {
		if a, ok := s.answers.find(p.Answer); ok {
			if res, ok := s.answers.locate(a, p.N); ok {
				return res, nil
			}
		}
	}
	if p.Hash == "" || p.Location.URI == "" {
		return nil, invalidParams("%s: the citation has no location or hash: %s", cmdLocate, usage)
	}
	abs, err := workspace.URIPath(string(p.Location.URI))
	if err != nil {
		return nil, invalidParams("%s: %v", cmdLocate, err)
	}
	ix, err := s.index(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmdLocate, err)
	}
	release()
	rel, inside := ix.Rel(abs)
	if !inside {
		return nil, invalidParams("%s: %s is outside the workspace folders", cmdLocate, abs)
	}
	var content []byte
	if doc, open := s.docs.get(canonURI(string(p.Location.URI))); open {
		content = doc.text.Bytes()
	} else if content, err = ix.Snapshot().Content(rel); err != nil {
		// Deleted, or unreadable now: the citation names code that is gone.
		return locateResult{Location: p.Location, Stale: true}, nil
	}
	start, end := int(p.Location.Range.Start.Line)+1, int(p.Location.Range.End.Line)+1
	ns, ne, found := citations.Reanchor(content, start, end, p.Hash, "")
	c := citations.At(citations.Citation{}, content, ns, ne, !found)
	return locateResult{Location: citationLocation(c, string(p.Location.URI), content), Stale: !found}, nil
}

// locate is citation n of kept answer a where it is now.
func (as *answers) locate(a *answer, n int) (locateResult, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, c := range a.cites {
		if c.n == n {
			cc := c.Now()
			return locateResult{Location: citationLocation(cc, string(c.uri), c.Anchor.Content()), Stale: cc.Stale}, true
		}
	}
	return locateResult{}, false
}
