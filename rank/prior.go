package rank

import "github.com/askls/askls/corpus"

// Priors are the factors a file's class puts on the score of its chunks
// when the question does not ask for that class: the implementation
// ranks before its tests, its documentation, generated output, copies of
// other projects, its packaging, its examples, the web assets of a
// project in another language and the command-line tools beside a
// library.
type Priors struct {
	TestFactor, ProseFactor, GeneratedFactor, VendoredFactor, PackagingFactor, ExampleFactor float64
	AssetFactor, ToolFactor                                                                  float64
}

// DefaultPriors are the factors askls ranks with. docs/ranking.md says
// why each is what it is.
func DefaultPriors() Priors {
	return Priors{TestFactor: 0.15, ProseFactor: 0.2, GeneratedFactor: 0.1, VendoredFactor: 0.3, PackagingFactor: 0.3, ExampleFactor: 0.5,
		AssetFactor: 0.5, ToolFactor: 0.3}
}

// Asks says which classes a question asks for: their prior does not
// apply.
type Asks struct {
	Tests, Docs, Vendored, Packaging, Examples, Assets, Tools bool
}

// Apply multiplies score by the priors of class c that the question does
// not ask for, recording each in b (when b is not nil), and returns the
// new score. A generated file takes the generated factor only, not also
// the prose one.
func (pr Priors) Apply(score float64, c corpus.Class, asks Asks, b *Breakdown) float64 {
	scale := func(name string, f float64) {
		if f == 1 {
			return
		}
		score *= f
		if b != nil {
			b.Add(StagePriors, name, f)
		}
	}
	if c.Has(corpus.Test) && !asks.Tests {
		scale("test", pr.TestFactor)
	}
	switch {
	case c.Has(corpus.Generated):
		scale("generated", pr.GeneratedFactor)
	case c.Has(corpus.Prose) && !asks.Docs:
		scale("prose", pr.ProseFactor)
	}
	if c.Has(corpus.Vendored) && !asks.Vendored {
		scale("vendored", pr.VendoredFactor)
	}
	if c.Has(corpus.Packaging) && !asks.Packaging {
		scale("packaging", pr.PackagingFactor)
	}
	if c.Has(corpus.Example) && !asks.Examples {
		scale("example", pr.ExampleFactor)
	}
	if c.Has(corpus.Asset) && !asks.Assets {
		scale("asset", pr.AssetFactor)
	}
	if c.Has(corpus.Tool) && !asks.Tools {
		scale("tool", pr.ToolFactor)
	}
	return score
}
