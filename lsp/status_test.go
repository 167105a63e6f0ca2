package lsp

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/askls/askls/thread"
)

// askls.status, once the index is built, decodes with encoding/json
// (strictly: no field the documented struct lacks) into statusResult, the
// struct docs/protocol.md documents; the last sync's duration is a number
// of milliseconds, not jsonrpc2's "12ms".
func TestStatusDecodesWithEncodingJSON(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	id, err := e.client.Request("workspace/executeCommand", map[string]any{"command": "askls.status", "arguments": []any{map[string]any{"notify": false}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.client.Reply(context.Background(), id)
	if err != nil || m.Err != nil {
		t.Fatalf("askls.status: %v %v", err, m.Err)
	}
	var st statusResult
	decodeStrict(t, "askls.status reply", m.Result, &st)
	if sync := st.Workspace.LastSync; sync.Files == 0 || sync.DurationMs <= 0 || !st.Workspace.Ready || st.Index.Files == 0 {
		t.Errorf("status: %s", m.Result)
	}
	e.shutdown()
}

// No reply type holds a time.Duration, which only the JSON package of
// jsonrpc2 writes as a string: every duration is a number with its unit
// in its name (ms, durationMs).
func TestRepliesHoldNoDuration(t *testing.T) {
	for _, v := range []any{statusResult{}, askResult{}, locateResult{}, wireThread{}, []thread.Summary{}} {
		if path := durationIn(reflect.TypeOf(v), reflect.TypeOf(v).String(), map[reflect.Type]bool{}); path != "" {
			t.Errorf("%s is a time.Duration: give the reply a number with its unit in its name", path)
		}
	}
}

// durationIn returns the path of a time.Duration inside typ, or "".
func durationIn(typ reflect.Type, path string, seen map[reflect.Type]bool) string {
	if typ == reflect.TypeOf(time.Duration(0)) {
		return path
	}
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return durationIn(typ.Elem(), path+"[]", seen)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			if p := durationIn(f.Type, path+"."+f.Name, seen); p != "" {
				return p
			}
		}
	}
	return ""
}
