package retrieval

import (
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/words"
)

func TestIdentifiers(t *testing.T) {
	for q, want := range map[string]string{
		"How does bufio.Scanner handle long tokens?":               "bufio.Scanner",
		"where is DetectContentType called":                        "DetectContentType",
		"What does ServeHTTP do with Handler and max_len":          "ServeHTTP,max_len",
		"How are carts totalled":                                   "",
		"Why does Reverse use runes":                               "",
		"Why does `Reverse` use runes":                             "Reverse",
		"How does errors.Is walk the chain, e.g. for errors.Join?": "errors.Is,errors.Join",
		"When a reply goes out with no Content-Type set":           "",
		"Is HTTP/1.1 or HTTP/2 used, i.e. which one?":              "",
		"what calls `foo()` and `a.b`":                             "foo,a.b",
		"Where are __init__ and _private set":                      "",
		"how does canvas::stroke lay the paint":                    "canvas::stroke",
		"where is easel::board::hue_all called":                    "hue_all",
		"why does crate::gauge::tally count twice":                 "gauge::tally",
		"why is std::make_shared used with Vec::new":               "Vec::new",
		"what happens in Pad::new().pour(3) then":                  "",
	} {
		if got := strings.Join(identifiers(q), ","); got != want {
			t.Errorf("identifiers(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestIdentifiersAreOnlyWordsWrittenAsCode(t *testing.T) {
	for w, want := range map[string]bool{
		"errors.Is": true, "ServeHTTP": true, "max_len": true, "maxTokenSize": true,
		"Content": false, "Type": false, "HTTP": false, "Server": false, "e.g": false, "_private": false,
	} {
		if got := words.IsCode(w) && qualifiedOK(w); got != want {
			t.Errorf("%q written as code: %v, want %v", w, got, want)
		}
	}
}

// The classes of question answered with implementations, and questions
// that use the same words otherwise.
func TestAsksForImplementations(t *testing.T) {
	for q, want := range map[string]bool{
		"which types implement `Shape`?":           true,
		"what implements it?":                      true,
		"list the implementations of Store":        true,
		"which structs satisfy the interface?":     true,
		"what are the subclasses of Model?":        true,
		"which classes extend Job":                 true,
		"what inherits from Model?":                true,
		"is it implemented by anything else?":      true,
		"classes derived from Base":                true,
		"how is the parser implemented?":           false,
		"where is the cache implemented":           false,
		"who calls that?":                          false,
		"what does the implementation of Area do?": false,
	} {
		if got := asksForImplementations(q); got != want {
			t.Errorf("asksForImplementations(%q) = %v, want %v", q, got, want)
		}
	}
}

// Words a question quotes are what the user saw, not what they ask: a
// quoted usage line does not ask for every use of a name.
func TestAsksForCallersReadsOnlyTheUnquotedWords(t *testing.T) {
	for q, want := range map[string]bool{
		"who calls `Parse`?":                                      true,
		"where is ParseArgs used?":                                true,
		"where is the message 'invalid usage of a lock' written?": false,
		`why does it print "usage: tool FILE" and exit?`:          false,
	} {
		if got := asksForCallers(q) || asksForUses(q); got != want {
			t.Errorf("asksForCallers || asksForUses (%q) = %v, want %v", q, got, want)
		}
	}
}

// A line that names a definition twice is one site of its uses.
func TestOncePerLine(t *testing.T) {
	sites := []tools.Reference{{Path: "a.py", Line: 3, Col: 5}, {Path: "a.py", Line: 3, Col: 30}, {Path: "a.py", Line: 4}, {Path: "b.py", Line: 3}}
	got := oncePerLine(sites)
	if len(got) != 3 || got[0].Col != 5 || got[1].Line != 4 || got[2].Path != "b.py" {
		t.Errorf("oncePerLine = %+v", got)
	}
}
