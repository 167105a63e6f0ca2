package index

import (
	"strings"

	"github.com/askls/askls/index/chunk"
)

// chunkText returns the text of a chunk: from the open buffer, else only
// the chunk's bytes from disk when the file still has the size it had
// when indexed, else the lines from the whole current file.
func (s *Snapshot) chunkText(p string, c chunk.Meta) []byte {
	if _, open := s.overlay[p]; !open && c.Len > 0 {
		if e := s.st.files[p]; e != nil {
			if r, rel := s.ix.rootOf(p); r != nil {
				if b, ok := readSpan(r, rel, e.Size, e.MTime, c.Off, c.Len); ok {
					return b
				}
			}
		}
	}
	data, err := s.Content(p)
	if err != nil {
		return nil
	}
	return chunk.NewLines(data).Text(data, c.Start, c.End)
}

// maxSpanRead bounds the bytes read at once for the chunks of one file in
// chunkTexts; chunks further apart are read one by one.
const maxSpanRead = 256 << 10

// chunkTexts returns the texts of n chunks, secrets not masked (only
// page's hits are: see readSpan), (path and meta of each from
// at): the chunks of one file are read with one open and one read of the
// span that holds them, when the file is not open in the editor, has the
// size it had when indexed and the span is small enough; else as
// chunkText does.
func (s *Snapshot) chunkTexts(n int, at func(int) (string, chunk.Meta)) [][]byte {
	out := make([][]byte, n)
	byFile := map[string][]int{}
	var order []string
	for i := 0; i < n; i++ {
		p, _ := at(i)
		if byFile[p] == nil {
			order = append(order, p)
		}
		byFile[p] = append(byFile[p], i)
	}
	for _, p := range order {
		idx := byFile[p]
		e := s.st.files[p]
		_, open := s.overlay[p]
		if len(idx) > 1 && e != nil && !open {
			lo, hi, ok := -1, 0, true
			for _, i := range idx {
				_, c := at(i)
				if c.Len <= 0 {
					ok = false
					break
				}
				if lo < 0 || c.Off < lo {
					lo = c.Off
				}
				hi = max(hi, c.Off+c.Len)
			}
			if ok && hi-lo <= maxSpanRead {
				if r, rel := s.ix.rootOf(p); r != nil {
					if b, ok := readSpanRaw(r, rel, e.Size, e.MTime, lo, hi-lo); ok {
						for _, i := range idx {
							_, c := at(i)
							out[i] = b[c.Off-lo : c.Off-lo+c.Len : c.Off-lo+c.Len]
						}
						continue
					}
				}
			}
		}
		for _, i := range idx {
			p, c := at(i)
			if e != nil && !open && c.Len > 0 {
				if r, rel := s.ix.rootOf(p); r != nil {
					if b, ok := readSpanRaw(r, rel, e.Size, e.MTime, c.Off, c.Len); ok {
						out[i] = b
						continue
					}
				}
			}
			out[i] = s.chunkText(p, c)
		}
	}
	return out
}

// excerptLines is the size of an excerpt.
const excerptLines = 4

// excerpt picks the excerptLines lines of a chunk's text where the query
// terms are densest.
func excerpt(text []byte, terms []string) string {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if len(lines) == 0 {
		return ""
	}
	score := make([]int, len(lines))
	for i, l := range lines {
		low := strings.ToLower(l)
		for _, t := range terms {
			if strings.Contains(low, t) {
				score[i] += 1 + len(t)/4
			}
		}
	}
	best, bestAt := -1, 0
	for i := range lines {
		sum := 0
		for j := i; j < i+excerptLines && j < len(lines); j++ {
			sum += score[j]
		}
		if sum > best {
			best, bestAt = sum, i
		}
	}
	end := min(bestAt+excerptLines, len(lines))
	out := make([]string, 0, excerptLines)
	for _, l := range lines[bestAt:end] {
		out = append(out, capLine(strings.TrimRight(l, "\r")))
	}
	return strings.Join(out, "\n")
}

// termScore counts the query terms on the lines of text, longer terms
// weighing more.
func termScore(text []byte, terms []string) int {
	low := strings.ToLower(string(text))
	n := 0
	for _, t := range terms {
		if c := strings.Count(low, t); c > 0 {
			n += min(c, 3) * (1 + len(t)/4)
		}
	}
	return n
}

// phraseReadAhead is how many candidates' texts a phrase query reads at
// once to check the phrase.
const phraseReadAhead = 32

// narrow narrows a hit on a merged chunk (several small units indexed
// together) to the unit the query is about, keeping the adjacent units
// that match nearly as well: a question often spans two adjacent small
// units. It returns the hit and the text of its range.
func (s *Snapshot) narrow(p *plan, c cand, text []byte) (Hit, []byte) {
	if len(c.meta.Parts) == 0 {
		return c.hit, text
	}
	keep := s.ix.rank.NarrowKeep
	li := chunk.NewLines(text)
	partText := func(pm chunk.Part) []byte { return li.Text(text, pm.Start-c.meta.Start+1, pm.End-c.meta.Start+1) }
	scores := make([]float64, len(c.meta.Parts))
	bi := 0
	joined := strings.Join(p.terms, "")
	for i, pm := range c.meta.Parts {
		sc := float64(termScore(partText(pm), p.terms))
		if strings.Contains(strings.ToLower(pm.Symbol), joined) {
			sc += 10
		}
		if len(p.phrases) > 0 && holdsPhrases(partText(pm), p.phrases) {
			sc += 10
		}
		if !p.lookup && declKinds[pm.Kind] && !(p.aboutDocs && pm.Kind == "package") {
			sc *= s.ix.rank.DeclFactor // as between chunks (Ranking.DeclFactor)
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
	h := c.hit
	best := c.meta.Parts[bi]
	h.Start, h.End, h.Symbol, h.Kind = c.meta.Parts[lo].Start, c.meta.Parts[hi].End, best.Symbol, best.Kind
	return h, li.Text(text, h.Start-c.meta.Start+1, h.End-c.meta.Start+1)
}
