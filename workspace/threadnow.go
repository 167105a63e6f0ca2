package workspace

import (
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/thread"
)

// CitationNow is a citation of a thread's turn where its code is now.
type CitationNow struct {
	// Citation has its lines and byte offsets in Content; Stale when no
	// lines of the file hash as the cited ones did.
	citations.Citation
	Abs     string // the file
	Content []byte // the file as it is now; nil when it is gone
	Hash    string // the blake3 hash of the cited evidence; "" when it was stale when cited
}

// CitationsNow is, per turn of th, its citations where the code is now in
// ix: lines that moved are found again by their evidence's hash. open
// gives the text of a file open in an editor (by absolute path), read
// before the index's; a citation whose file is outside ix is left out.
func CitationsNow(ix *index.Index, th *thread.Thread, open func(abs string) ([]byte, bool)) [][]CitationNow {
	snap := ix.Snapshot()
	contents := map[string][]byte{}
	out := make([][]CitationNow, len(th.Turns))
	for ti, t := range th.Turns {
		out[ti] = []CitationNow{}
		for i, c := range t.Citations {
			abs, err := ix.Abs(c.Path)
			if err != nil {
				continue
			}
			content, ok := contents[c.Path]
			if !ok {
				if content, ok = open(abs); !ok {
					if content, err = snap.Content(c.Path); err != nil {
						content = nil // deleted since: the citation is stale
					}
				}
				contents[c.Path] = content
			}
			now := CitationNow{Abs: abs, Content: content}
			if i < len(t.Evidence) && t.Evidence[i] >= 1 && t.Evidence[i] <= len(th.Evidence) && !c.Stale {
				ev := th.Evidence[t.Evidence[i]-1]
				now.Hash = ev.Hash
				now.Citation = citations.Follow(c, content, ev.Start, ev.End, ev.Hash, ev.Text)
			} else {
				now.Citation = citations.At(c, content, c.Start, c.End, c.Stale)
			}
			out[ti] = append(out[ti], now)
		}
	}
	return out
}
