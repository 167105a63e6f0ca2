package index

import (
	"context"
	"math"
	"strings"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
)

// chunkText returns the text of a chunk, its secrets masked
// (secret.Redact): what a search returns, and every text read for a
// user or a model, is masked. It is the chunk's text from the open
// buffer, else only the chunk's bytes from disk when the file still has
// the size it had when indexed (readChunk), else the lines from the
// whole current file. The rerank reads its candidates raw (chunkTexts):
// their text is only scored, and page masks what it returns.
func (s *Snapshot) chunkText(p string, c chunk.Meta) []byte {
	if _, open := s.overlay[p]; !open && c.Len > 0 {
		if e := s.st.files[p]; e != nil {
			if r, rel := s.ix.rootOf(p); r != nil {
				if b, ok := s.readChunk(p, r, rel, e.Size, e.MTime, c); ok {
					return secret.Redact(b)
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
// page's hits are: see chunkText), (path and meta of each from
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
		if e != nil && !open && s.cachedTexts(p, e.Size, e.MTime, idx, at, out) {
			continue
		}
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
							s.ix.spans.put(p, e.Size, e.MTime, c.Off, out[i])
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
						s.ix.spans.put(p, e.Size, e.MTime, c.Off, b)
						continue
					}
				}
			}
			out[i] = s.chunkText(p, c)
		}
	}
	return out
}

// excerpt is the excerpt of a chunk's text (rank.Excerpt), each line
// capped.
func excerpt(text []byte, terms []string) string {
	lines := rank.Excerpt(text, terms)
	for i, l := range lines {
		lines[i] = capLine(l)
	}
	return strings.Join(lines, "\n")
}

// readTexts fills the Text of the candidates that have none, one read per
// file (rank.Read).
func (s *Snapshot) readTexts(pool []rank.Cand) {
	var missing []int
	for i := range pool {
		if pool[i].Text == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return
	}
	texts := s.chunkTexts(len(missing), func(k int) (string, chunk.Meta) {
		return pool[missing[k]].Path, pool[missing[k]].Meta
	})
	for k, i := range missing {
		pool[i].Text = texts[k]
	}
}

// contentIDF gives each term its inverse document frequency in the
// content field of the first root's index (1 each when unknown, and
// when the store panics, as docFreq; rank.IDF). The weights of scorch's
// snapshots are kept for the next search on the same one (idfCache).
func (s *Snapshot) contentIDF(ctx context.Context, terms []string) (w []float64) {
	w = make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	defer func() {
		if recover() != nil {
			for i := range w {
				w[i] = 1
			}
		}
	}()
	if len(s.ix.roots) == 0 {
		return w
	}
	ai, err := s.ix.roots[0].bi.Advanced()
	if err != nil {
		return w
	}
	r, err := ai.Reader()
	if err != nil {
		return w
	}
	defer r.Close()
	n, err := r.DocCount()
	if err != nil || n == 0 {
		return w
	}
	_, cacheable := r.(*scorch.IndexSnapshot)
	var looked []string
	var lookedW []float64
	for i, t := range terms {
		if cacheable {
			if c, ok := s.ix.idf.get(r, t); ok {
				w[i] = c
				continue
			}
		}
		tfr, err := r.TermFieldReader(ctx, []byte(t), store.FieldContent, false, false, false)
		if err != nil {
			continue
		}
		df := tfr.Count()
		tfr.Close()
		w[i] = math.Log(1 + float64(n)/float64(df+1))
		looked, lookedW = append(looked, t), append(lookedW, w[i])
	}
	if cacheable && len(looked) > 0 {
		s.ix.idf.put(r, looked, lookedW)
	}
	return w
}
