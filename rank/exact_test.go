package rank

import (
	"testing"

	"github.com/askls/askls/index/chunk"
)

// An identifier next to a non-ASCII letter is matched without a panic
// (the byte before it is not an ASCII identifier byte).
func TestHoldsIdentBesideNonASCII(t *testing.T) {
	if !holdsIdent([]byte("é foo"), "foo") || !holdsIdent([]byte("éfoo"), "foo") || holdsIdent([]byte("foobar"), "foo") {
		t.Error("holdsIdent beside non-ASCII text")
	}
}

// A chunk that holds none of the query's identifiers loses the whole
// ExactMissFactor in a lookup, and a share of it in a question.
func TestMissFactorFollowsTheIdentifiersShare(t *testing.T) {
	t.Parallel()
	if got := missFactor(0.3, 4, 4); got != 0.3 {
		t.Errorf("lookup: %v, want 0.3", got)
	}
	q := missFactor(0.3, 1, 10)
	if !(q > 0.85 && q < 0.9) {
		t.Errorf("one identifier in ten terms: %v, want 0.3^0.1 ≈ 0.886", q)
	}
	if got := missFactor(0.3, 0, 0); got != 0.3 {
		t.Errorf("no terms: %v, want the factor", got)
	}
}

// A name of one part written qualified by its package (check.Valid) is
// an identifier of the query: the unit that defines it under a folder or
// file of that package's name is the definition (×DefinitionBoost),
// not a method of the same name elsewhere, nor one that differs in case.
func TestQualifiedNameIsDefinedUnderItsPackage(t *testing.T) {
	t.Parallel()
	p, err := ParseQuery("how does check.Valid tell a good order from a bad one")
	if err != nil {
		t.Fatal(err)
	}
	if q, ok := p.Qualifiers["valid"]; !ok || q.Pkg != "check" || q.Name != "Valid" || q.Scopes != nil {
		t.Fatalf("Idents %v, Qualifiers %v: want valid qualified by check", p.Idents, p.Qualifiers)
	}
	text := []byte("func Valid(o Order) bool { return o.n > 0 }")
	cands := []Cand{
		{Path: "check/valid.go", Meta: chunk.Meta{Symbol: "Valid"}, Text: text},
		{Path: "store/order.go", Meta: chunk.Meta{Symbol: "Order.Valid"}, Text: text},
		{Path: "check/lower.go", Meta: chunk.Meta{Symbol: "valid"}, Text: text},
		{Path: "check.go", Meta: chunk.Meta{Symbol: "Valid"}, Text: text},
		{Path: "main.go", Meta: chunk.Meta{Symbol: "Valid"}, Text: text},
	}
	p.Projects = []string{"shop"}
	for i, want := range []bool{true, false, false, true, false} {
		if got := p.defines(&cands[i], "valid"); got != want {
			t.Errorf("%s %s defines check.Valid: %v, want %v", cands[i].Path, cands[i].Meta.Symbol, got, want)
		}
	}
	p.Projects = []string{"check"}
	if !p.defines(&cands[4], "valid") {
		t.Error("main.go at the root of the project named check: not the definition of check.Valid")
	}
	// A name of several parts keeps matching wherever it is defined.
	p, _ = ParseQuery("how does store.ValidOrder work")
	if _, ok := p.Qualifiers["validorder"]; ok {
		t.Errorf("ValidOrder is an identifier by itself; Qualifiers %v", p.Qualifiers)
	}
	if !p.defines(&Cand{Path: "other/x.go", Meta: chunk.Meta{Symbol: "ValidOrder"}}, "validorder") {
		t.Error("ValidOrder defined outside store: not a definition")
	}
	// A file name is no package-qualified identifier.
	p, _ = ParseQuery("where is config.yaml read and what does setup.py install")
	if len(p.Qualifiers) != 0 {
		t.Errorf("file names taken for qualified identifiers: %v", p.Qualifiers)
	}
}

// A question too short to be reranked that names an identifier fetches
// as many candidates as the exact identifiers stage reads: the
// definition it boosts may rank below the first 40 by bleve's score
// alone (a common name in a package of common words). A lookup keeps
// its smaller fetch.
func TestShortQuestionWithAnIdentifierFetchesWhatExactReads(t *testing.T) {
	t.Parallel()
	prm := DefaultParams()
	p, _ := ParseQuery("what does http.Error write")
	if p.Sizes(&prm, 10).Fetch < exactPool {
		t.Errorf("Fetch %d for %v, want at least %d", p.Sizes(&prm, 10).Fetch, p.Idents, exactPool)
	}
	p, _ = ParseQuery("what does it write")
	if got := p.Sizes(&prm, 10).Fetch; got >= exactPool {
		t.Errorf("Fetch %d without an identifier, want fewer than %d", got, exactPool)
	}
	p, _ = ParseQuery("http.Error")
	if got := p.Sizes(&prm, 10).Fetch; got >= exactPool {
		t.Errorf("Fetch %d for a lookup, want fewer than %d", got, exactPool)
	}
}

// A class's constructors are named like the class, but a question that
// names the class means the class: its constructors get no
// DefinitionBoost (the answer's definitions leave them out too).
func TestAConstructorDoesNotDefineItsClass(t *testing.T) {
	t.Parallel()
	p, err := ParseQuery("how does a `TileCache` drop its oldest tiles")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		symbol string
		want   bool
	}{
		{"TileCache", true},
		{"Store.TileCache", true}, // a method named like it, in another class
		{"TileCache.TileCache", false},
		{"outer.TileCache.TileCache", false},
		{"TileCache.shrink", false},
	} {
		cand := Cand{Path: "cache/TileCache.java", Meta: chunk.Meta{Symbol: c.symbol}}
		if got := p.defines(&cand, "tilecache"); got != c.want {
			t.Errorf("%s defines TileCache: %v, want %v", c.symbol, got, c.want)
		}
	}
}
