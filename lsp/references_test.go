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
