package index

import (
	"unicode/utf8"

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
		if e := s.st.files[api]; e != nil && e.Hash == blake3.Sum256(content) {
			continue
		}
		r, rel := s.ix.rootOf(api)
		if r == nil || r.ign.ignoredPath(rel, s.ix.opts.IncludeVendor) || isSecretName(rel) {
			continue
		}
		lang := languageOf(rel)
		if int64(len(content)) > s.ix.opts.MaxFileBytes || isBinary(content) || !utf8.Valid(content) || looksLikePrivateKey(lang, content) {
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

// bufferCandidates chunks the stale buffers and returns the chunks that
// hold at least half of the query's terms (a lookup: all of them), scored
// as top × coverage², top being the best bleve score of the search (1
// when it found nothing): a chunk holding the whole query ranks with the
// best indexed chunks, one holding half of it well below them.
func (s *Snapshot) bufferCandidates(p *plan, bufs map[string][]byte, top float64) []cand {
	if top <= 0 {
		top = 1
	}
	weights := make([]float64, len(p.terms))
	for i := range weights {
		weights[i] = 1
	}
	need := 0.5
	if p.lookup {
		need = 1
	}
	var out []cand
	var cv coverer
	for api, content := range bufs {
		lang := languageOf(api)
		chunks, _ := chunkFile(api, lang, content)
		li := newLineIndex(content)
		for _, c := range chunks {
			text := li.text(content, c.Start, c.End)
			cov := cv.coverage(cv.add(text, api), p.terms, weights)
			if cov < need || cov == 0 {
				continue
			}
			score := top * cov * cov
			meta := chunkMeta{Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind, Parts: c.Parts}
			out = append(out, cand{hit: Hit{Path: api, Start: c.Start, End: c.End, Symbol: c.Symbol, Kind: c.Kind,
				Language: lang, Score: score}, score: score, meta: meta, text: text, test: isTestPath(api)})
		}
	}
	return out
}
