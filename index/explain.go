package index

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// QueryPlan is what a search asks for, for --explain: the query's terms
// (analysed: lower case, stemmed, stop words out), those written as code,
// the workspace's abbreviations of its plain words (abbrev.go) and, in a
// lookup, the parts asked for in names and paths only.
type QueryPlan struct {
	Terms     []string            `json:"terms"`
	Code      []string            `json:"code,omitempty"`
	Lookup    bool                `json:"lookup,omitempty"`
	Abbrevs   map[string][]string `json:"abbreviations,omitempty"`
	NamesOnly []string            `json:"names_only,omitempty"`
	Reranked  bool                `json:"reranked,omitempty"`
}

// Explain returns the plan Search makes of q.
func (s *Snapshot) Explain(ctx context.Context, q string) (QueryPlan, error) {
	p, err := parseQuery(q, Filter{})
	if err != nil {
		return QueryPlan{}, err
	}
	p.DropNames(s.ix.projectNames)
	rk := &s.ix.rank
	out := QueryPlan{Terms: p.Terms, Lookup: p.Lookup, Reranked: p.Sizes(rk, defaultLimit).Rerank}
	for _, t := range p.Terms {
		if p.Code[t] {
			out.Code = append(out.Code, t)
		}
		if s.namesOnly(p.Plan, t) {
			out.NamesOnly = append(out.NamesOnly, t)
		}
	}
	if rk.AbbrevWeight > 0 {
		out.Abbrevs = s.abbrevsOf(ctx, p.Plan, rk.AbbrevMinLen)
	}
	return out, nil
}

// String is the plan in one line.
func (qp QueryPlan) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "terms %s", strings.Join(qp.Terms, " "))
	if len(qp.Code) > 0 {
		fmt.Fprintf(&b, "; as code %s", strings.Join(qp.Code, " "))
	}
	if len(qp.Abbrevs) > 0 {
		var as []string
		for t, a := range qp.Abbrevs {
			as = append(as, t+"→"+strings.Join(a, ","))
		}
		sort.Strings(as)
		fmt.Fprintf(&b, "; abbreviated %s", strings.Join(as, " "))
	}
	if len(qp.NamesOnly) > 0 {
		fmt.Fprintf(&b, "; in names and paths only %s", strings.Join(qp.NamesOnly, " "))
	}
	switch {
	case qp.Lookup:
		b.WriteString("; a lookup")
	case qp.Reranked:
		b.WriteString("; reranked")
	}
	return b.String()
}
