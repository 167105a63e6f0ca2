package index

import (
	"unicode/utf8"

	"github.com/askls/askls/index/chunk"
	"github.com/askls/askls/index/secret"
	"github.com/askls/askls/index/store"
	"github.com/askls/askls/index/walk"
	"github.com/askls/askls/rank"
	"github.com/zeebo/blake3"
)

// Open buffers the generation does not hold yet (edited since they were
// indexed, or opened while the first build still runs and the writer is
// busy with it) are searched directly: chunked in memory and scored by how
// much of the query each chunk holds, beside bleve's candidates. A
// question about the code being typed finds it from the first request.

// maxStaleBufferBytes bounds the open-buffer content searched this way in
// one search; beyond it the writer's next generation has to catch up.
const maxStaleBufferBytes = 4 << 20

// staleBuffers returns the API paths and contents of the open buffers
// whose content the generation did not index, and that the index would
// hold (inside a root, not ignored, not secret, text, not too large).
func (s *Snapshot) staleBuffers() map[string][]byte {
	var out map[string][]byte
	total := 0
	for api, content := range s.overlay {
		if e := s.st.files[api]; e != nil && e.Hash == s.ix.bufferSum(api, content) {
			continue
		}
		r, rel := s.ix.rootOf(api)
		if r == nil || r.ign.IgnoredPath(rel, s.ix.opts.IncludeVendor) || secret.IsName(rel) {
			continue
		}
		lang := chunk.Language(rel)
		if int64(len(content)) > s.ix.opts.MaxFileBytes || walk.IsBinary(content) || !utf8.Valid(content) || secret.LooksLikePrivateKey(lang, content) {
			continue
		}
		if total += len(content); total > maxStaleBufferBytes {
			break
		}
		if out == nil {
			out = map[string][]byte{}
		}
		out[api] = content
	}
	return out
}

// bufSum is the blake3 of one open buffer's content, remembered for the
// slice it was computed on. Holding the slice's pointer keeps that memory
// from being reused for another buffer of the same length while it is
// remembered.
type bufSum struct {
	data *byte
	n    int
	sum  [32]byte
}

// bufferSum returns blake3(content) of the open buffer api, computing it
// once per content: Update stores a new slice for each edit and keeps the
// others, so a search hashes only what changed since the last one.
func (ix *Index) bufferSum(api string, content []byte) [32]byte {
	var data *byte
	if len(content) > 0 {
		data = &content[0]
	}
	if v, ok := ix.bufSums.Load(api); ok {
		if b := v.(bufSum); b.data == data && b.n == len(content) {
			return b.sum
		}
	}
	b := bufSum{data: data, n: len(content), sum: blake3.Sum256(content)}
	ix.bufSums.Store(api, b)
	return b.sum
}

// bufferCandidates chunks the stale buffers and returns the chunks that
// hold at least half of the query's terms (a lookup: all of them), scored
// as top × coverage², top being the best bleve score of the search (1
// when it found nothing): a chunk holding the whole query ranks with the
// best indexed chunks, one holding half of it well below them.
func (s *Snapshot) bufferCandidates(p *plan, bufs map[string][]byte, top float64) []rank.Cand {
	if top <= 0 {
		top = 1
	}
	need := 0.5
	if p.Lookup {
		need = 1
	}
	var out []rank.Cand
	for api, content := range bufs {
		lang := chunk.Language(api)
		chunks, _ := chunk.File(api, lang, content)
		li := chunk.NewLines(content)
		for _, c := range chunks {
			text := li.Text(content, c.Start, c.End)
			cov := rank.Covers(text, api, p.Terms)
			if cov < need || cov == 0 {
				continue
			}
			score := top * cov * cov
			meta := chunk.Meta{Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind, Parts: c.Parts}
			out = append(out, rank.Cand{Path: api, Language: lang, Meta: meta, Score: score, Base: score, Text: text,
				Test: isTestPath(api) || store.UnitIsTest(lang, c.Symbol, c.Kind, c.Parts)})
		}
	}
	return out
}
