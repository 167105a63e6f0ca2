// Package benchkit is what the lab (cmd/askls-bench and the benchmarks)
// measures askls with, kept out of the index's product API: the query mix
// whose latency is published, and the plain bleve baseline askls is
// compared against (60-line chunks, bleve's default mapping, a match
// query) over the files askls indexes (index.ListFiles).
//
// It is the one package besides index that imports bleve, and only to
// build that baseline. A *Baseline is safe for concurrent searches; Update
// and Close belong to one goroutine.
package benchkit
