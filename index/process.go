package index

import "github.com/blevesearch/bleve/v2/search/searcher"

// TuneProcessSearch sets bleve's process-wide search settings to what
// askls's queries want: a disjunction of up to 64 clauses is searched with
// a slice rather than a heap (bleve switches at 10). A question here is
// three clauses per term (content, symbol, path), 15 to 30 clauses, and
// the slice is the faster on them, with the same ranks. It changes every
// bleve index in the process, so the index never calls it itself: a
// program that owns its process calls it once, before searching (askls
// and askls-bench do).
func TuneProcessSearch() {
	searcher.DisjunctionHeapTakeover = 64
}
