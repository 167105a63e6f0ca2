package index

import (
	"bytes"
	"slices"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/rank"
)

// phraseReadAhead is how many candidates' texts a phrase query reads at
// once to check the phrase.
const phraseReadAhead = 32

// page returns the first limit hits of the ranked candidates, each
// narrowed to the unit the query is about (rank.Narrow), with its
// excerpt, and the first ones followed to the units they call
// (rank.Callees); a phrase query drops the candidates that do not hold
// its phrases.
func (s *Snapshot) page(p *plan, cands []rank.Cand, limit int) []Hit {
	hits := make([]Hit, 0, limit)
	var lines rank.Shown
	var later []Hit // over lines the page shows (rank.Shown)
	add := func(h Hit) {
		switch {
		case len(hits) == limit:
		case lines.Overlaps(h.Path, h.Start, h.End):
			later = append(later, h)
		default:
			lines.Add(h.Path, h.Start, h.End)
			hits = append(hits, h)
		}
	}
	for i, c := range cands {
		if len(hits) == limit {
			break
		}
		if c.Text == nil && p.Strict {
			// Many candidates may lack the phrase: read the next ones'
			// texts together, one read per file.
			win := cands[i:min(len(cands), i+phraseReadAhead)]
			texts := s.chunkTexts(len(win), func(k int) (string, chunk.Meta) { return win[k].Path, win[k].Meta })
			for k := range win {
				win[k].Text = texts[k]
			}
			c.Text = cands[i].Text
		}
		text := c.Text
		if text == nil {
			text = s.chunkText(c.Path, c.Meta)
		}
		if p.Strict && !rank.HoldsPhrases(text, p.Phrases) {
			continue
		}
		var u chunk.Part
		u, text = rank.Narrow(p.Plan, &s.ix.rank, c, text)
		h := Hit{Path: c.Path, Start: u.Start, End: u.End, Symbol: u.Symbol, Kind: u.Kind, Language: c.Language, Score: c.Score}
		// The pool's texts are read unmasked; what a hit shows is masked.
		h.Excerpt = excerpt(secret.Redact(bytes.Clone(text)), p.Terms)
		var why rank.Breakdown
		if c.Why != nil {
			h.Explain, why = *c.Why, *c.Why
		}
		add(h)
		if len(hits) <= rank.DelegationHits { // the delegation stage (rank/delegate.go)
			for _, callee := range s.callees(p, h, text, why) {
				add(callee)
			}
		}
	}
	for _, h := range later {
		if len(hits) < limit && !slices.ContainsFunc(hits, func(o Hit) bool { return o.Path == h.Path && o.Start == h.Start }) {
			hits = append(hits, h)
		}
	}
	return hits
}

// callees returns the hits for the units of h's file that h calls when
// it is a wrapper (rank.Callees), each scored DelegationShare of it.
func (s *Snapshot) callees(p *plan, h Hit, text []byte, why rank.Breakdown) []Hit {
	share := s.ix.rank.DelegationShare
	e := s.st.files[h.Path]
	if e == nil {
		return nil
	}
	u := chunk.Part{Start: h.Start, End: h.End, Symbol: h.Symbol, Kind: h.Kind}
	var out []Hit
	for _, cl := range rank.Callees(p.Plan, share, u, text, e.Chunks) {
		cu, ch := cl.Unit, cl.Chunk
		callee := Hit{Path: h.Path, Start: cu.Start, End: cu.End, Symbol: cu.Symbol, Kind: cu.Kind, Language: h.Language, Score: h.Score * share}
		body := rank.LinesOf(s.chunkText(h.Path, ch), ch.Start, cu.Start, cu.End)
		callee.Excerpt = excerpt(secret.Redact(body), p.Terms)
		if why != nil {
			callee.Explain = append(append(rank.Breakdown{}, why...), rank.Factor{Stage: rank.StageDelegation, Name: "callee of " + rank.LastName(h.Symbol), Value: share})
		}
		out = append(out, callee)
	}
	return out
}
