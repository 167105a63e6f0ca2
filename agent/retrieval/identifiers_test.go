package retrieval

import (
	"strings"
	"testing"

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
