package index

import "github.com/askls/askls/rank"

// Ranking holds the parameters of Search's ranking: rank.Params, whose
// fields docs/ranking.md explains. Options.Ranking passes one to Open.
type Ranking = rank.Params

// DefaultRanking returns the ranking Search uses unless Options.Ranking
// says otherwise.
func DefaultRanking() Ranking { return rank.DefaultParams() }
