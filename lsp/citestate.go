package lsp

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

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

// citeHash is the hex blake3 hash of lines start..end (1-based, inclusive)
// of content, each ending in "\n" as citations.Lines gives them: what a
// thread's evidence holds. "" when the lines are not all there.
func citeHash(content []byte, start, end int) string {
	text, whole := citations.Lines(content, start, end)
	if !whole {
		return ""
	}
	h := citations.Hash(text)
	return hex.EncodeToString(h[:])
}

// reanchor finds the lines of content that hash to hash and span as many
// lines as start..end did: at start itself when they are still there, else
// the nearest such place (above before below at equal distance). ok is
// false when no lines of content hash so. text, when known, is the cited
// lines themselves (as citations.Lines gives them): they are then looked
// for directly, which is fast in a large file; without it every span of
// the same size is hashed.
func reanchor(content []byte, start, end int, hash, text string) (newStart, newEnd int, ok bool) {
	if hash == "" || start < 1 || end < start {
		return start, end, false
	}
	if text != "" {
		return reanchorText(content, start, end, hash, text)
	}
	li := citations.NewLineIndex(content)
	span := end - start
	last := li.Count() - span // the last line a span of this size can start at
	matches := func(s int) bool {
		if s < 1 || s > last {
			return false
		}
		text, whole := li.Lines(s, s+span)
		if !whole {
			return false
		}
		h := citations.Hash(text)
		return hex.EncodeToString(h[:]) == hash
	}
	for d := 0; start-d >= 1 || start+d <= last; d++ {
		if matches(start - d) {
			return start - d, end - d, true
		}
		if d > 0 && matches(start+d) {
			return start + d, end + d, true
		}
	}
	return start, end, false
}

// reanchorText is reanchor for cited lines whose text is known: each place
// the text starts a line and ends one is a candidate, the nearest to start
// whose lines hash to hash wins.
func reanchorText(content []byte, start, end int, hash, text string) (int, int, bool) {
	want := []byte(strings.TrimSuffix(text, "\n"))
	span := end - start
	best, bestDist := 0, -1
	for from := 0; from <= len(content); {
		i := bytes.Index(content[from:], want)
		if i < 0 {
			break
		}
		at := from + i
		from = at + 1
		after := at + len(want)
		if (at > 0 && content[at-1] != '\n') || (after < len(content) && content[after] != '\n') {
			continue
		}
		line := bytes.Count(content[:at], []byte{'\n'}) + 1
		d := line - start
		if d < 0 {
			d = -d
		}
		if (bestDist < 0 || d < bestDist) && citeHash(content, line, line+span) == hash {
			best, bestDist = line, d
		}
		if len(want) == 0 {
			break
		}
	}
	if bestDist < 0 {
		return start, end, false
	}
	return best, best + span, true
}

// citationAt is a citation of lines start..end of content with its byte
// offsets filled in (what citationLocation and citations.NewAnchor take).
func citationAt(c citations.Citation, content []byte, start, end int, stale bool) citations.Citation {
	c.Start, c.End, c.Stale = start, end, stale
	c.StartByte, c.EndByte = citations.LineSpan(content, start, end)
	return c
}

// now is the citation where its code is now. The anchor follows edits;
// where an edit touched the cited lines it checks them against the hash
// taken when the answer was made: lines that hash the same again (an edit
// undone) are not stale, and lines found elsewhere (cut and pasted, or
// moved by a change the anchor could not follow) re-anchor the citation.
// Caller holds answers.mu.
func (c *cite) now() citations.Citation {
	cc := c.anchor.Citation()
	if c.gone {
		cc.Stale = true
		return cc
	}
	if c.hash == "" || c.lines < 1 {
		return cc
	}
	content := c.anchor.Content()
	if cc.End-cc.Start+1 == c.lines && citeHash(content, cc.Start, cc.End) == c.hash {
		if cc.Stale {
			cc.Stale = false
			c.anchor = citations.NewAnchor(citationAt(cc, content, cc.Start, cc.End, false), content)
		}
		return cc
	}
	if s, e, ok := reanchor(content, cc.Start, cc.Start+c.lines-1, c.hash, c.text); ok {
		cc = citationAt(cc, content, s, e, false)
		c.anchor = citations.NewAnchor(cc, content)
		return cc
	}
	cc.Stale = true
	return cc
}

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
		content = doc.content
	} else if content, err = ix.Snapshot().Content(rel); err != nil {
		// Deleted, or unreadable now: the citation names code that is gone.
		return locateResult{Location: p.Location, Stale: true}, nil
	}
	start, end := int(p.Location.Range.Start.Line)+1, int(p.Location.Range.End.Line)+1
	ns, ne, found := reanchor(content, start, end, p.Hash, "")
	c := citationAt(citations.Citation{}, content, ns, ne, !found)
	return locateResult{Location: citationLocation(c, string(p.Location.URI), content), Stale: !found}, nil
}

// locate is citation n of kept answer a where it is now.
func (as *answers) locate(a *answer, n int) (locateResult, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, c := range a.cites {
		if c.n == n {
			cc := c.now()
			return locateResult{Location: citationLocation(cc, string(c.uri), c.anchor.Content()), Stale: cc.Stale}, true
		}
	}
	return locateResult{}, false
}

// threadCitationNow re-anchors a thread turn's citation c, whose evidence
// was lines evStart..evEnd with text text hashing to hash, in content (nil: the file is
// gone). It returns the citation where the code is now, stale when it is
// not there.
func threadCitationNow(c citations.Citation, content []byte, evStart, evEnd int, hash, text string) citations.Citation {
	s, _, ok := reanchor(content, evStart, evEnd, hash, text)
	if !ok {
		return citationAt(c, content, c.Start, c.End, true)
	}
	shift := s - evStart
	return citationAt(c, content, c.Start+shift, c.End+shift, false)
}
