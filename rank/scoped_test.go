package rank

import (
	"slices"
	"testing"

	"github.com/askls/askls/index/chunk"
)

// A name written with "::" is an identifier of the question, qualified
// by its qualifiers; the qualifiers are words of the question but no
// identifiers, path keywords are neither, and a name of the standard
// library is no identifier.
func TestScopedNamesAreQualifiedIdentifiers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q      string
		idents []string
		id     string   // the qualified identifier
		scopes []string // its qualifiers (nil: none kept)
		terms  []string // some of the terms
	}{
		{"how does canvas::stroke lay the paint", []string{"stroke"}, "stroke", []string{"canvas"}, []string{"canva", "stroke", "paint"}},
		{"where is easel::board::hue_all called", []string{"hue_all"}, "", nil, []string{"easel", "board", "hue_all"}},
		{"what does Kettle::brew do with the leaves", []string{"brew"}, "brew", []string{"Kettle"}, []string{"kettl", "brew", "leav"}},
		{"how does crate::gauge::tally count", []string{"tally"}, "tally", []string{"gauge"}, []string{"gaug", "talli", "count"}},
		{"when `Palette::mix` blends two shades", []string{"mix"}, "mix", []string{"Palette"}, []string{"palett", "mix", "blend"}},
		{"why does it copy into a std::vector first", nil, "", nil, []string{"copi", "vector"}},
		{"why is std::make_shared called twice", nil, "", nil, []string{"make_shared"}},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Idents, c.idents) {
			t.Errorf("%q: idents %q, want %q", c.q, p.Idents, c.idents)
		}
		if c.id != "" && !slices.Equal(p.Qualifiers[c.id].Scopes, c.scopes) {
			t.Errorf("%q: %s qualified by %q, want %q", c.q, c.id, p.Qualifiers[c.id].Scopes, c.scopes)
		}
		for _, term := range c.terms {
			if !slices.Contains(p.Terms, term) {
				t.Errorf("%q: terms %q lack %q", c.q, p.Terms, term)
			}
		}
		if slices.Contains(p.Terms, "crate") {
			t.Errorf("%q: the path keyword crate is a term: %q", c.q, p.Terms)
		}
		if len(c.idents) > 0 && !p.Code[Terms(c.idents[0])[0]] {
			t.Errorf("%q: the name %s is not code (%v)", c.q, c.idents[0], p.Code)
		}
	}
}

// A name written with "::" is defined, case included, by a method of a
// type named like a qualifier (a C++ out-of-class method canvas.stroke,
// a Rust method Kettle.brew) or a unit under a file or folder named like
// one (gauge/tally.rs, gauge.rs): not the other type's method of that
// name.
func TestScopedNameIsDefinedUnderItsQualifier(t *testing.T) {
	t.Parallel()
	text := []byte("void stroke() {}")
	for _, c := range []struct {
		q, id string
		cands []Cand
		want  []bool
	}{
		{"how does canvas::stroke lay the paint", "stroke", []Cand{
			{Path: "src/canvas.cc", Meta: chunk.Meta{Symbol: "canvas.stroke"}},
			{Path: "src/sketch.cc", Meta: chunk.Meta{Symbol: "sketch.stroke"}},
			{Path: "src/draw.cc", Meta: chunk.Meta{Symbol: "canvas.Stroke"}},
			{Path: "src/canvas/line.cc", Meta: chunk.Meta{Symbol: "stroke"}},
		}, []bool{true, false, false, true}},
		{"how does crate::gauge::tally count", "tally", []Cand{
			{Path: "src/gauge.rs", Meta: chunk.Meta{Symbol: "tally"}},
			{Path: "src/gauge/mod.rs", Meta: chunk.Meta{Symbol: "tally"}},
			{Path: "src/ledger.rs", Meta: chunk.Meta{Symbol: "tally"}},
			{Path: "src/ledger.rs", Meta: chunk.Meta{Symbol: "Gauge.tally"}},
		}, []bool{true, true, false, true}},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.want {
			cand := c.cands[i]
			cand.Text = text
			if got := p.defines(&cand, c.id); got != want {
				t.Errorf("%q: %s %s defines %s: %v, want %v", c.q, cand.Path, cand.Meta.Symbol, c.id, got, want)
			}
		}
	}
}

// A name qualified by the project itself, with "::" or a dot, is an
// identifier of the question defined anywhere in the project, and its
// name stays a term even when it is the project's name too (the entry
// function easel.easel() of a package easel). A file name is none.
func TestProjectQualifiedNamesStay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q      string
		idents []string
		terms  []string
	}{
		{"what does easel.easel() return when no board is set", []string{"easel"}, []string{"easel", "return", "board", "set"}},
		{"how does easel.hang pick a wall", []string{"hang"}, []string{"hang", "pick", "wall"}},
		{"how does easel::hang pick a wall", []string{"hang"}, []string{"hang", "pick", "wall"}},
		{"what does easel.toml configure for the board", nil, []string{"configur", "board"}},
		{"why is env['easel.board'] empty", nil, nil},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		p.DropNames([]string{"easel"})
		if !slices.Equal(p.Idents, c.idents) {
			t.Errorf("%q: idents %q, want %q", c.q, p.Idents, c.idents)
		}
		for _, term := range c.terms {
			if !slices.Contains(p.Terms, term) {
				t.Errorf("%q: terms %q lack %q", c.q, p.Terms, term)
			}
		}
		for _, id := range c.idents {
			if _, ok := p.Qualifiers[id]; ok {
				t.Errorf("%q: %s is still qualified: %v", c.q, id, p.Qualifiers[id])
			}
			cand := Cand{Path: "lib/deep/any.py", Meta: chunk.Meta{Symbol: id}, Text: []byte("def " + id + "(): pass")}
			if !p.defines(&cand, id) {
				t.Errorf("%q: a unit %s elsewhere in the project does not define it", c.q, id)
			}
		}
	}
}
