// Package citations owns the guarantees behind every citation askls shows:
// the evidence registry (what the tools returned, with a blake3 hash of its
// text), the [n] markers in an answer, their validation (unknown numbers
// removed, stale text marked, survivors renumbered 1..k in order of first
// use), byte offsets and 1-based lines of cited spans (LineSpan, Lines,
// LineIndex), the re-anchoring of a citation while its file is edited
// (Anchor), and where a cited span is now (follow.go: SpanHash, Reanchor,
// Relocate, Follow, and Tracked, a citation that follows its code through
// edits and is found again by its hash where an edit touched it).
// It knows no protocol: the language server turns its offsets into LSP
// positions (UTF-16 columns) at the edge.
//
// Concurrency: a *Registry is safe for concurrent use. A *Rewriter, an
// *Anchor and a *Tracked belong to one goroutine at a time. The functions
// are pure.
package citations
