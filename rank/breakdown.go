package rank

import (
	"fmt"
	"strings"
)

// Stage names, in the order a search runs them.
const (
	StageCandidates = "candidates" // bleve's score of the chunk
	StagePriors     = "priors"     // the file's class (Prior)
	StageExact      = "exact"      // identifiers the query writes as code
	StageCoverage   = "coverage"   // share of the question's terms held, proximity
	StageFeedback   = "feedback"   // pseudo-relevance feedback
	StageFiles      = "files"      // a file's score from its chunks, diversity
	StageDelegation = "delegation" // a unit a wrapper among the first hits calls
)

// Factor is one stage's contribution to a score: a factor it was
// multiplied by, or, for the first stage, the score it started from.
type Factor struct {
	Stage string  `json:"stage"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Breakdown is the list of a score's factors, in the order they applied.
type Breakdown []Factor

// Add records a factor; on a nil Breakdown it does nothing, so a search
// that does not explain records nothing.
func (b *Breakdown) Add(stage, name string, value float64) {
	if b == nil {
		return
	}
	*b = append(*b, Factor{Stage: stage, Name: name, Value: value})
}

// String writes the factors on one line: "candidates bm25=4.21 ·
// priors test×0.5".
func (b Breakdown) String() string {
	var parts []string
	for _, f := range b {
		op := "×"
		if f.Stage == StageCandidates || f.Stage == StageFiles {
			op = "="
		}
		parts = append(parts, fmt.Sprintf("%s %s%s%.3g", f.Stage, f.Name, op, f.Value))
	}
	return strings.Join(parts, " · ")
}
