// Package rank holds askls's ranking: the stages that work on a query
// and chunk texts, never on the store. ParseQuery turns a question into a
// Plan (its terms, analysed as the index analyses code: Terms; the
// identifiers it writes as code, its quoted phrases, its adjacent word
// pairs, which classes of file it asks for); Params are the parameters
// of every stage (index.Ranking is this type).
//
// index retrieves candidates with bleve (tf-idf over the chunk's text,
// its symbol names and its path) from a Plan, each with its priors
// (Plan.ApplyPriors), and hands them to Run as Cands, with a Read that
// reads their texts and an IDF from the index; Run applies, in order,
// exact identifiers (Exact), names (NameBoost), the text score (BM25
// over the reranked pool's texts, bm25.go), coverage, proximity, quoted
// phrases and feedback (Rerank), the direction of an operation the
// question asks about (Direction) and the files stage (Files, ByFile). index then writes the page: each hit narrowed to its unit
// (Narrow), its excerpt (Excerpt), the units a wrapper calls (Callees).
// A Breakdown records what each stage did to a score (askls search
// --explain). docs/ranking.md states the model, its formulas and
// constants.
//
// rank imports corpus, words and index/chunk (a chunk's lines and
// units), never bleve (Porter's stemmer only through words), index or
// index/store.
//
// Everything here is a pure function or a value, safe to use from any
// goroutine; a Plan is not changed after DropNames, and the Cands and
// Breakdowns of one search belong to that search's goroutine. Rerank
// takes the buffer it copies its pool's texts into from a sync.Pool and
// gives it back before it returns.
package rank
