package index

import (
	"context"

	"github.com/askls/askls/index/store"
	"github.com/askls/askls/rank"
)

// namesOnly reports whether term t of p is asked for in names and paths
// only: a part of an identifier that a lookup names, held by more than
// Params.LookupPartPostings chunks (common).
func (s *Snapshot) namesOnly(p *rank.Plan, t string) bool {
	return p.Lookup && p.Parts[t] && s.common(t, s.ix.rank.LookupPartPostings)
}

// common reports whether more than limit chunks of all roots hold term t
// in their content (false when limit is 0). In a lookup, such a part of
// the identifier (http, type, read in a large tree) is asked for in names
// and paths only: scoring every posting of it in content is most of the
// lookup's time, its idf makes it weigh little there, and the whole
// identifier already finds the code that uses it
// (rank.Params.LookupPartPostings).
func (s *Snapshot) common(t string, limit int) bool {
	return limit > 0 && s.docFreq(context.Background(), store.FieldContent, t) > uint64(limit)
}

// docFreq is the number of chunks of all roots whose field holds term.
// A damaged store that panics counts 0: the search that follows is
// guarded (damage.go), and it reports the damage.
func (s *Snapshot) docFreq(ctx context.Context, field, term string) (df uint64) {
	defer func() {
		if recover() != nil {
			df = 0
		}
	}()
	for _, r := range s.ix.roots {
		ai, err := r.bi.Advanced()
		if err != nil {
			continue
		}
		rd, err := ai.Reader()
		if err != nil {
			continue
		}
		if tfr, err := rd.TermFieldReader(ctx, []byte(term), field, false, false, false); err == nil {
			df += tfr.Count()
			_ = tfr.Close()
		}
		_ = rd.Close()
	}
	return df
}
