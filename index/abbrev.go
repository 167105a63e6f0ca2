package index

import (
	"context"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
	"github.com/askls/askls/words"
)

// Abbreviations learned from the workspace: code writes "param" for
// parameters, "desc" for description, "proc" for process, and the verb
// of an agent noun ("route" in code, "router" in a question). Porter
// stems none of these to the same term. A plain word of the question
// (not written as code) also queries, and the rerank also counts, every
// identifier part of the workspace's symbols that is a proper prefix of
// the word's term, at least minLen bytes long and two shorter than the
// term (rank.Params.AbbrevWeight, docs/ranking.md "Abbreviations").

// abbrevsOf returns, for each plain term of p, the symbol terms of the
// workspace that abbreviate it (abbreviations); the words the vocabulary
// table already gives (rank.CodeWords) are left out.
func (s *Snapshot) abbrevsOf(ctx context.Context, p *rank.Plan, minLen int) map[string][]string {
	var out map[string][]string
	for _, t := range p.Terms {
		if p.Code[t] || len(t) < minLen+2 {
			continue
		}
		if a := s.abbreviations(ctx, t, minLen); len(a) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[t] = a
		}
	}
	return out
}

// abbreviations returns the prefixes of term t, from minLen bytes to two
// short of t, that some root's symbol field holds.
func (s *Snapshot) abbreviations(ctx context.Context, t string, minLen int) []string {
	var out []string
	known := map[string]bool{}
	for _, a := range rank.CodeWords(t) {
		known[a] = true
	}
	for k := minLen; k <= len(t)-2; k++ {
		if p := t[:k]; !known[p] && !words.IsStop(p) && s.docFreq(ctx, store.FieldSymbol, p) > 0 {
			out = append(out, p)
		}
	}
	return out
}
