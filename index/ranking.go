package index

import "github.com/askls/askls/rank"

// Ranking holds the parameters of Search's ranking: rank.Params, whose
// fields docs/ranking.md explains. Options.Ranking passes one to Open.
type Ranking = rank.Params

// DefaultRanking returns the ranking Search uses unless Options.Ranking
// says otherwise.
func DefaultRanking() Ranking { return rank.DefaultParams() }

// IsDocWord reports whether a word of a question (any case, inflected or
// not) makes it a question about documentation or an explanation
// (rank.IsDocWord).
func IsDocWord(w string) bool { return rank.IsDocWord(w) }

// AsksForOverview reports whether a question asks for an overview or a
// reference rather than where or how something is done
// (rank.AsksForOverview).
func AsksForOverview(q string) bool { return rank.AsksForOverview(q) }
