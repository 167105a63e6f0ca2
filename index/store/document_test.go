package store

import (
	"testing"

	"github.com/askls/askls/index/chunk"
)

// TestUnitIsTest: a chunk of a file that is not a test is test code when
// each of its units is: one in Rust's test module, or of kind "test" (a
// fn with a test attribute, index/chunk's markRustTests).
func TestUnitIsTest(t *testing.T) {
	for _, c := range []struct {
		name, symbol, kind string
		parts              []chunk.Part
		want               bool
	}{
		{"test module", "tests.parses", "func", nil, true},
		{"cfg(test) method", "Decoder.decode_fut", "test", nil, true},
		{"method", "Decoder.decode", "method", nil, false},
		{"merged tests", "Decoder.decode_fut", "test", []chunk.Part{
			{Symbol: "Decoder.decode_fut", Kind: "test"}, {Symbol: "tests.parses", Kind: "func"}}, true},
		{"merged with code", "Decoder.decode_fut", "test", []chunk.Part{
			{Symbol: "Decoder.decode_fut", Kind: "test"}, {Symbol: "Decoder.decode", Kind: "method"}}, false},
	} {
		if got := UnitIsTest("rust", c.symbol, c.kind, c.parts); got != c.want {
			t.Errorf("%s: UnitIsTest = %v, want %v", c.name, got, c.want)
		}
	}
}
