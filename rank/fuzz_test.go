package rank

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseQuery: any text a client sends as a query is either refused
// with ErrBadQuery or parsed into a plan the stages can use: no panic, at
// most maxQueryTerms terms, no empty term, identifiers in lower case,
// every qualified identifier among the identifiers, positive sizes.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"ServeHTTP", "how does assert.Equal decide", "errors.Is", "`a.and(b)` and z.union([...])",
		`"quoted phrase"`, "'No such command'", "e.g. i.e. urls.py example.com", "64KB 1.5s 2048-bit",
		"", "   ", "a.B.c.D", "x.Équal ÿ.Z", "\xff\xfe", strings.Repeat("word ", 2000),
		"what is the default swappiness and where is it defined?",
	} {
		f.Add(s)
	}
	prm := DefaultParams()
	f.Fuzz(func(t *testing.T, q string) {
		p, err := ParseQuery(q)
		if err != nil {
			if !errors.Is(err, ErrBadQuery) {
				t.Fatalf("ParseQuery(%q): %v, not ErrBadQuery", q, err)
			}
			return
		}
		if len(p.Terms) > maxQueryTerms {
			t.Errorf("ParseQuery(%q): %d terms", q, len(p.Terms))
		}
		for _, term := range p.Terms {
			if term == "" {
				t.Errorf("ParseQuery(%q): an empty term in %q", q, p.Terms)
			}
		}
		idents := map[string]bool{}
		for _, id := range p.Idents {
			if id != strings.ToLower(id) || !utf8.ValidString(id) && utf8.ValidString(q) {
				t.Errorf("ParseQuery(%q): identifier %q", q, id)
			}
			idents[id] = true
		}
		for id, ql := range p.Qualifiers {
			if !idents[id] || ql.Pkg == "" || !strings.EqualFold(ql.Name, id) {
				t.Errorf("ParseQuery(%q): qualifier %q → %+v, identifiers %q", q, id, ql, p.Idents)
			}
		}
		for _, limit := range []int{1, 10, 200} {
			if sz := p.Sizes(&prm, limit); sz.Fetch < limit || sz.Pool < 1 {
				t.Errorf("ParseQuery(%q).Sizes(%d) = %+v", q, limit, sz)
			}
		}
	})
}
