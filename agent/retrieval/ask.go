package retrieval

import (
	"time"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/thread"
)

// Ask is one question as a retrieval answer reads it.
type Ask struct {
	// Text is the question; Path and Line (optional) are the cursor: an
	// index path and a 1-based line.
	Text string
	Path string
	Line int
	// Prior is the thread this question follows up, or nil: a follow-up
	// that names nothing itself builds on the symbol the previous answer
	// cited.
	Prior *thread.Thread
	// Src is the snapshot searched; Box reads its files for the question
	// and Registry numbers the evidence the answer cites (the Box's).
	Src      tools.Source
	Box      *tools.Box
	Registry *citations.Registry
	// Record is told of each search, lookup and grep the answer makes,
	// with its short form for a refusal's "Searched:" line. May be nil.
	Record func(step tools.Step, searched string)
}

// Answer is a retrieval answer's text, before the line that says how to
// get a model's answer.
type Answer struct {
	Text string
	// Weak is set when the best evidence does not clearly answer the
	// question; the text's first line says so.
	Weak bool
}

// run is the state of one retrieval answer.
type run struct {
	q      Ask
	src    tools.Source
	tb     *tools.Box
	reg    *citations.Registry
	prior  *thread.Thread
	record func(tools.Step, string)
	weak   bool
}

// msSince is the time since t0 in milliseconds, as a Step carries it.
func msSince(t0 time.Time) float64 { return float64(time.Since(t0).Microseconds()) / 1000 }
