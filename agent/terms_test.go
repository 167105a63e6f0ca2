package agent

import (
	"strings"
	"testing"

	"github.com/askls/askls/index"
)

func TestExampleShape(t *testing.T) {
	for q, want := range map[string]string{
		`"1h2m3.5s"`:    "0h0m0.0s",
		`'bytes=1000-'`: "bytes=0-",
		`"250ms"`:       "", // too short: would match any "12ms"
		`"Found"`:       "", // no digit: its words are terms already
		`“v1.22.3”`:     "v0.0.0",
	} {
		if got := exampleShape(q); got != want {
			t.Errorf("exampleShape(%s) = %q, want %q", q, got, want)
		}
	}
	for _, c := range []struct {
		line, shape string
		want        bool
	}{
		{`// String returns a string in the form "72h3m0.5s".`, "0h0m0.0s", true},
		{`// Largest time is 2540400h10m10.000000000s`, "0h0m0.0s", true},
		{`// in the form "72h3m"`, "0h0m0.0s", false},
		{`x := 12h3m0.5`, "0h0m0.0s", false},
		{`Range: BYTES=0-499`, "bytes=0-", true},
	} {
		if got := hasShape(c.line, c.shape); got != c.want {
			t.Errorf("hasShape(%q, %q) = %v, want %v", c.line, c.shape, got, c.want)
		}
	}
	terms := questionTerms(`Where is text like "1h2m3.5s" built?`)
	var shapes []string
	for _, tm := range terms {
		if tm.shape != "" {
			shapes = append(shapes, tm.shape)
		}
	}
	if len(shapes) != 1 || shapes[0] != "0h0m0.0s" {
		t.Errorf("shape terms %q, want [0h0m0.0s]", shapes)
	}
}

// A value the user saw, quoted in the question, finds the code that
// shows one of its shape, even when another unit holds more of the
// question's words.
func TestRetrievalMatchesAnExampleByItsShape(t *testing.T) {
	src := fixedHits{
		memSource: memSource{"clock/clock.go": `package clock

// Stamp prints the text of a stamp.
func Stamp(n int) string {
	return "stamp"
}

// Span is a length of time.
type Span int

// String returns a string in the form "72h3m0.5s".
func (s Span) String() string {
	return "span"
}
`},
		hits: []index.Hit{
			{Path: "clock/clock.go", Start: 11, End: 14, Symbol: "Span.String", Kind: "method", Language: "go"},
			{Path: "clock/clock.go", Start: 3, End: 6, Symbol: "Stamp", Kind: "func", Language: "go"},
		},
	}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, `When I print an elapsed time I get text like "1h2m3.5s". Where is that string built?`)
	if len(got.res.Citations) == 0 || got.res.Citations[0].Start != 11 {
		t.Errorf("first citation %+v, want Span.String from line 11:\n%s", got.res.Citations, got.res.Answer)
	}
	if strings.Contains(got.res.Answer, "Nothing here clearly answers") {
		t.Errorf("weak line on an answered question:\n%s", got.res.Answer)
	}
}
