package lsp

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func TestReferencesOfTheIdentifierUnderTheCursor(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	// An open buffer adds a use after an emoji: its column is counted in
	// UTF-16 (the emoji is two units).
	e.open("shop/price.go", e.read("shop/price.go")+"\nvar s, y = \"😀\", Price(1)\n")
	refs := func(line, char uint32, decl bool) []string {
		t.Helper()
		var locs []protocol.Location
		err := e.call("textDocument/references", map[string]any{
			"textDocument": map[string]any{"uri": e.uri("shop/price.go")},
			"position":     map[string]any{"line": line, "character": char},
			"context":      map[string]any{"includeDeclaration": decl},
		}, &locs)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range locs {
			rel := strings.TrimPrefix(string(l.URI), e.uri("")+"/")
			out = append(out, fmt.Sprintf("%s:%d:%d-%d", rel, l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Character))
		}
		sort.Strings(out)
		return out
	}
	// The cursor on "Price" of "type Price int" (line 3, 0-based): its
	// uses in code, not the comment above it.
	want := "shop/price.go:10:17-22 shop/price.go:6:16-21 shop/price.go:6:36-41 shop/price.go:7:14-19"
	if got := strings.Join(refs(3, 6, false), " "); got != want {
		t.Errorf("references = %s, want %s", got, want)
	}
	if got := refs(3, 6, true); len(got) != 5 || got[1] != "shop/price.go:3:5-10" {
		t.Errorf("with the declaration: %v", got)
	}
	if got := refs(2, 0, false); len(got) != 0 {
		t.Errorf("a comment's first byte has references: %v", got)
	}
	e.shutdown()
}

// textDocument/implementation on an interface's name: the types whose
// methods implement it or that embed it, tests included, each at its
// name; on a name that is no interface, nothing.
func TestImplementationOfTheInterfaceUnderTheCursor(t *testing.T) {
	e := startEditorAt(t, writeFixture(t, "implementations.txtar"), editorSetup{})
	e.waitIndexed()
	impls := func(rel string, line, char uint32) string {
		t.Helper()
		var locs []protocol.Location
		err := e.call("textDocument/implementation", map[string]any{
			"textDocument": map[string]any{"uri": e.uri(rel)},
			"position":     map[string]any{"line": line, "character": char},
		}, &locs)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range locs {
			rel := strings.TrimPrefix(string(l.URI), e.uri("")+"/")
			out = append(out, fmt.Sprintf("%s:%d:%d-%d", rel, l.Range.Start.Line, l.Range.Start.Character, l.Range.End.Character))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	// "type Method interface {" is line 3 (0-based); "pay.Method" in
	// bank.go line 10 names it too.
	want := "bank/bank.go:5:5-13 bank/bank.go:9:5-11 pay/pay.go:7:5-9 pay/pay_test.go:2:5-15"
	if got := impls("pay/pay.go", 3, 6); got != want {
		t.Errorf("implementations = %s, want %s", got, want)
	}
	if got := impls("bank/bank.go", 10, 6); got != want {
		t.Errorf("from pay.Method: %s, want %s", got, want)
	}
	if got := impls("pay/pay.go", 7, 6); got != "" {
		t.Errorf("a struct has implementations: %s", got)
	}
	e.shutdown()
}
