package index

import (
	"bytes"
	"cmp"
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
// excerpt, and the first ones followed to the units they call: a
// wrapper's right after it (rank.Callees), any other's among the hits by
// their own score (rank.Calls, rank.CalleeScore); a phrase query drops
// the candidates that do not hold its phrases.
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
	var waiting calleeQueue // callees of the first hits, by score
	for i, c := range cands {
		for h, ok := waiting.pop(c.Score); ok; h, ok = waiting.pop(c.Score) {
			add(h)
		}
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
		if n := len(hits); n <= rank.DelegationHits { // the delegation stage (rank/delegate.go)
			for _, callee := range s.callees(p, h, text, why) {
				add(callee.hit())
			}
			if len(hits) == n && hits[n-1].Start == h.Start { // not a wrapper, and shown
				waiting.push(s.calledUnits(p, h, text, why))
			}
		}
	}
	for h, ok := waiting.pop(0); ok; h, ok = waiting.pop(0) {
		add(h)
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
func (s *Snapshot) callees(p *plan, h Hit, text []byte, why rank.Breakdown) []calleeHit {
	share := s.ix.rank.DelegationShare
	e := s.st.files[h.Path]
	if e == nil {
		return nil
	}
	u := chunk.Part{Start: h.Start, End: h.End, Symbol: h.Symbol, Kind: h.Kind}
	return s.calleeHits(p, h, rank.Callees(p.Plan, share, u, text, e.Chunks), why, "callee of ",
		func(body []byte) float64 {
			if rank.Covers(body, "", p.Terms) == 0 {
				return 0
			}
			return share
		})
}

// calledUnits returns the hits for the units of h's file that h calls
// (rank.Calls), each scored by rank.CalleeScore.
func (s *Snapshot) calledUnits(p *plan, h Hit, text []byte, why rank.Breakdown) []calleeHit {
	share := s.ix.rank.CalleeShare
	e := s.st.files[h.Path]
	if e == nil || share <= 0 {
		return nil
	}
	u := chunk.Part{Start: h.Start, End: h.End, Symbol: h.Symbol, Kind: h.Kind}
	return s.calleeHits(p, h, rank.Calls(p.Plan, u, text, e.Chunks), why, "called by ",
		func(body []byte) float64 { return rank.CalleeScore(1, share, body, p.Terms) })
}

// calleeHits turns the units h calls into hits, each scored h's score
// times factor of its text; one of factor 0 is left out. Their chunks
// are read together (one check of the file, as the rerank reads its
// pool), each masked once; a hit's excerpt is made when the page shows
// it (calleeHit.hit).
func (s *Snapshot) calleeHits(p *plan, h Hit, called []rank.Callee, why rank.Breakdown, name string, factor func([]byte) float64) []calleeHit {
	if len(called) == 0 {
		return nil
	}
	texts := s.chunkTexts(len(called), func(k int) (string, chunk.Meta) { return h.Path, called[k].Chunk })
	masked := map[int][]byte{} // by the chunk's first line: merged units share their chunk
	var out []calleeHit
	for k, cl := range called {
		cu, ch := cl.Unit, cl.Chunk
		text, ok := masked[ch.Start]
		if !ok {
			text = secret.Redact(bytes.Clone(texts[k]))
			masked[ch.Start] = text
		}
		body := rank.LinesOf(text, ch.Start, cu.Start, cu.End)
		f := factor(body)
		if f <= 0 {
			continue
		}
		callee := Hit{Path: h.Path, Start: cu.Start, End: cu.End, Symbol: cu.Symbol, Kind: cu.Kind, Language: h.Language, Score: h.Score * f}
		if why != nil {
			callee.Explain = append(append(rank.Breakdown{}, why...), rank.Factor{Stage: rank.StageDelegation, Name: name + rank.LastName(h.Symbol), Value: f})
		}
		out = append(out, calleeHit{callee, body, p.Terms})
	}
	return out
}

// calleeHit is a callee's hit before its excerpt is made from body.
type calleeHit struct {
	h     Hit
	body  []byte // masked
	terms []string
}

// hit returns the hit with its excerpt.
func (c calleeHit) hit() Hit {
	h := c.h
	h.Excerpt = excerpt(c.body, c.terms)
	return h
}

// calleeQueue holds the callees of the first hits until the candidates
// left score below them.
type calleeQueue []calleeHit

// push adds hits, keeping the queue by score, best first.
func (q *calleeQueue) push(hits []calleeHit) {
	*q = append(*q, hits...)
	slices.SortStableFunc(*q, func(a, b calleeHit) int { return cmp.Compare(b.h.Score, a.h.Score) })
}

// pop takes the best hit if it scores at least score.
func (q *calleeQueue) pop(score float64) (Hit, bool) {
	if len(*q) == 0 || (*q)[0].h.Score < score {
		return Hit{}, false
	}
	c := (*q)[0]
	*q = (*q)[1:]
	return c.hit(), true
}
