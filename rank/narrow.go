package rank

import (
	"bytes"
	"strings"

	"github.com/askls/askls/index/chunk"
)

// termScore counts the query terms on the lines of text, longer terms
// weighing more, a term on a comment line commentWeight of one in code
// (comments.go), up to 3 of each.
func termScore(text []byte, lang string, terms []string, commentWeight float64) float64 {
	low := bytes.ToLower(text)
	var comments [][2]int
	if len(low) == len(text) { // else lower-casing moved the offsets
		comments = commentLines(text, lang)
	}
	n := 0.0
	for _, t := range terms {
		out, in := occurrences(low, t, comments)
		if c := float64(out) + commentWeight*float64(in); c > 0 {
			n += min(c, 3) * float64(1+len(t)/4)
		}
	}
	return n
}

// occurrences counts where t occurs in low, apart inside ranges (sorted,
// disjoint) and outside them.
func occurrences(low []byte, t string, ranges [][2]int) (out, in int) {
	r := 0
	for off := 0; ; {
		i := bytes.Index(low[off:], []byte(t))
		if i < 0 {
			return out, in
		}
		i += off
		for r < len(ranges) && ranges[r][1] <= i {
			r++
		}
		if r < len(ranges) && ranges[r][0] <= i {
			in++
		} else {
			out++
		}
		off = i + 1
	}
}

// Narrow narrows a hit on a merged chunk (several small units indexed
// together) to the unit the query is about, keeping the adjacent units
// that match nearly as well: a question often spans two adjacent small
// units. It returns the unit (or run of units) and the text of its range.
func Narrow(p *Plan, prm *Params, c Cand, text []byte) (chunk.Part, []byte) {
	if len(c.Meta.Parts) == 0 {
		return chunk.Part{Start: c.Meta.Start, End: c.Meta.End, Symbol: c.Meta.Symbol, Kind: c.Meta.Kind}, text
	}
	keep := prm.NarrowKeep
	li := chunk.NewLines(text)
	partText := func(pm chunk.Part) []byte { return li.Text(text, pm.Start-c.Meta.Start+1, pm.End-c.Meta.Start+1) }
	scores := make([]float64, len(c.Meta.Parts))
	bi := 0
	joined := strings.Join(p.Terms, "")
	for i, pm := range c.Meta.Parts {
		sc := termScore(partText(pm), c.Language, p.Terms, prm.CommentWeight)
		if strings.Contains(strings.ToLower(pm.Symbol), joined) {
			sc += 10
		}
		if p.namesUnit(pm.Symbol, joined) {
			sc += 10 // the unit the query names: a lookup's definition, not its caller merged above it
		}
		if len(p.Phrases) > 0 && HoldsPhrases(partText(pm), p.Phrases) {
			sc += 10
		}
		if !p.Lookup && declKinds[pm.Kind] && !(p.AboutDocs && pm.Kind == "package") {
			sc *= prm.DeclFactor // as between chunks (Params.DeclFactor)
		}
		scores[i] = sc
		if sc > scores[bi] {
			bi = i
		}
	}
	lo, hi := bi, bi
	if keep > 0 {
		for lo > 0 && scores[lo-1] > 0 && scores[lo-1] >= keep*scores[bi] {
			lo--
		}
		for hi < len(scores)-1 && scores[hi+1] > 0 && scores[hi+1] >= keep*scores[bi] {
			hi++
		}
	}
	best := c.Meta.Parts[bi]
	u := chunk.Part{Start: c.Meta.Parts[lo].Start, End: c.Meta.Parts[hi].End, Symbol: best.Symbol, Kind: best.Kind}
	return u, li.Text(text, u.Start-c.Meta.Start+1, u.End-c.Meta.Start+1)
}

// namesUnit reports whether the query names the unit symbol: its last
// name is an identifier the query writes as code, or the query's terms
// written together (a lookup of one word).
func (p *Plan) namesUnit(symbol, joined string) bool {
	name := LastName(symbol)
	if strings.EqualFold(name, joined) {
		return true
	}
	for _, id := range p.Idents {
		if strings.EqualFold(name, id) {
			return true
		}
	}
	return false
}
