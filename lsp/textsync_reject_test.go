package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInvalidDidChangeIsRejectedWhole: a didChange holding a valid insert
// at 0:0 and one at line -1 is rejected as a whole (neither applied), the
// client is told with window/showMessage, incremental edits are refused
// until a full text arrives, and the full text resynchronises the buffer.
// Before, the line -1 failed the decoding: nothing was applied and only a
// WARN was logged.
func TestInvalidDidChangeIsRejectedWhole(t *testing.T) {
	e, s := captureServer(t, editorSetup{})
	text := "package shop\n\nvar x = 1\n"
	e.open("shop/edit.go", text)
	change := func(version int, changes ...map[string]any) {
		e.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": e.uri("shop/edit.go"), "version": version},
			"contentChanges": changes,
		})
	}
	at := func(line, char int) map[string]any {
		return map[string]any{"start": map[string]any{"line": line, "character": char}, "end": map[string]any{"line": line, "character": char}}
	}
	change(2, map[string]any{"range": at(0, 0), "text": "// first\n"}, map[string]any{"range": at(-1, 0), "text": "// second\n"})
	e.sync()
	if got := s.docText(t, e.uri("shop/edit.go")); got != text {
		t.Errorf("half applied: %q", got)
	}
	e.waitFor("window/showMessage", func(m json.RawMessage) bool {
		var p struct {
			Type    int
			Message string
		}
		json.Unmarshal(m, &p)
		return p.Type == 1 && strings.Contains(p.Message, "shop/edit.go") && strings.Contains(p.Message, "-1:0 is not a position") &&
			strings.Contains(p.Message, "reopen")
	})
	change(3, map[string]any{"range": at(0, 0), "text": "// later\n"})
	e.sync()
	if got := s.docText(t, e.uri("shop/edit.go")); got != text {
		t.Errorf("an incremental edit was applied to a buffer out of step: %q", got)
	}
	change(4, map[string]any{"text": "package shop\n\nvar y = 2\n"})
	change(5, map[string]any{"range": at(0, 0), "text": "// again in step\n"})
	e.sync()
	if got := s.docText(t, e.uri("shop/edit.go")); got != "// again in step\npackage shop\n\nvar y = 2\n" {
		t.Errorf("after the full text: %q", got)
	}
	if n := len(e.received("window/showMessage")); n != 1 {
		t.Errorf("%d showMessage notifications, want 1", n)
	}
	e.shutdown()
}
