package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The tests of this file tie docs/protocol.md, the contract editors
// implement, to the server's Go types and tables, so that neither can change
// without the other.

const protocolDoc = "../docs/protocol.md"

func readProtocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docExample returns the body of the code block opened by "```json label".
func docExample(t *testing.T, doc, label string) []byte {
	t.Helper()
	open := "```json " + label + "\n"
	i := strings.Index(doc, open)
	if i < 0 {
		t.Fatalf("%s has no %q example", protocolDoc, "```json "+label)
	}
	body := doc[i+len(open):]
	j := strings.Index(body, "```")
	if j < 0 {
		t.Fatalf("%s: the %q example is not closed", protocolDoc, label)
	}
	return []byte(body[:j])
}

// docTable returns the first-column names (`name`) of the table in the
// section under "## heading".
func docTable(t *testing.T, doc, heading string) []string {
	t.Helper()
	i := strings.Index(doc, "\n## "+heading+"\n")
	if i < 0 {
		t.Fatalf("%s has no section %q", protocolDoc, heading)
	}
	sec := doc[i+len(heading)+5:]
	if j := strings.Index(sec, "\n## "); j >= 0 {
		sec = sec[:j]
	}
	first := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")
	var names []string
	for _, m := range first.FindAllStringSubmatch(sec, -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("%s: section %q has no table of `names`", protocolDoc, heading)
	}
	return names
}

// decodeStrict decodes an example into v; a field v's type lacks fails.
func decodeStrict(t *testing.T, label string, data []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		t.Fatalf("the %q example does not decode into %T: %v", label, v, err)
	}
}

// requireAllFields checks that the example (decoded as any) names every
// JSON field of typ, descending into askls's own struct types (the LSP
// types of go.lsp.dev/protocol are the LSP specification's business).
func requireAllFields(t *testing.T, where string, typ reflect.Type, example any) {
	t.Helper()
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Slice:
		items, _ := example.([]any)
		if len(items) == 0 {
			if typ.Elem().Kind() == reflect.Struct && strings.HasPrefix(typ.Elem().PkgPath(), "github.com/askls/askls") {
				t.Errorf("%s: the example has no %s to show its fields", where, typ.Elem())
			}
			return
		}
		for i, it := range items {
			requireAllFields(t, fmt.Sprintf("%s[%d]", where, i), typ.Elem(), it)
		}
	case reflect.Struct:
		if !strings.HasPrefix(typ.PkgPath(), "github.com/askls/askls") {
			return
		}
		obj, ok := example.(map[string]any)
		if !ok {
			t.Errorf("%s: want an object for %s, the example has %T", where, typ, example)
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			v, ok := obj[name]
			if !ok {
				t.Errorf("%s: field %q of %s is missing from the example in %s", where, name, typ, protocolDoc)
				continue
			}
			requireAllFields(t, where+"."+name, f.Type, v)
		}
	}
}

// checkExample decodes the example labelled label into a new T, checks
// that it shows every field, and that encoding the value gives the example
// back.
func checkExample[T any](t *testing.T, doc, label string) T {
	t.Helper()
	data := docExample(t, doc, label)
	v, want := checkExampleBytes[T](t, label, data)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the %q example does not survive a round trip through %T:\n got %s\nwant %s", label, v, out, bytes.Join(bytes.Fields(data), nil))
	}
	return v
}

func TestProtocolDocAskParams(t *testing.T) {
	p := checkExample[askParams](t, readProtocolDoc(t), "askls/ask params")
	if p.Question == "" || p.TextDocument == nil || p.Position == nil || p.WorkDoneToken == nil || p.PartialResultToken == nil {
		t.Errorf("the askls/ask params example should show every field filled: %+v", p)
	}
}

func TestProtocolDocAskResult(t *testing.T) {
	r := checkExample[askResult](t, readProtocolDoc(t), "askls/ask result")
	for _, c := range r.Citations {
		if !strings.Contains(r.Answer, fmt.Sprintf("[%d]", c.N)) {
			t.Errorf("the result example's answer does not use citation [%d]", c.N)
		}
	}
}

func TestProtocolDocPartialResult(t *testing.T) {
	p := checkExample[partialText](t, readProtocolDoc(t), "partial result")
	if p.Delta == "" {
		t.Error("the partial result example has no text")
	}
}

func TestProtocolDocStatusResult(t *testing.T) {
	st := checkExample[statusResult](t, readProtocolDoc(t), "askls.status result")
	if st.Workspace.LastSync.DurationMs == 0 {
		t.Error("the askls.status example should show a duration")
	}
}

func TestProtocolDocCommands(t *testing.T) {
	doc := readProtocolDoc(t)
	if got := docTable(t, doc, "Commands (`workspace/executeCommand`)"); !slices.Equal(got, commands) {
		t.Errorf("%s lists the commands %v; initialize advertises %v", protocolDoc, got, commands)
	}
	var args []any
	decodeStrict(t, "askls.ask arguments", docExample(t, doc, "askls.ask arguments"), &args)
	if len(args) != 4 {
		t.Fatalf("the askls.ask arguments example has %d arguments, want question, path, line, col", len(args))
	}
	_, q := args[0].(string)
	_, p := args[1].(string)
	_, l := args[2].(float64)
	_, c := args[3].(float64)
	if !q || !p || !l || !c {
		t.Errorf("askls.ask arguments are [string, string, number, number], the example has %v", args)
	}
}

func TestProtocolDocMethodsHandled(t *testing.T) {
	cfg := DefaultConfig()
	s := newServer(Options{Config: &cfg})
	want := []string{"$/cancelRequest"} // handled by the queue, on the read loop
	for m := range s.methods {
		want = append(want, m)
	}
	got := docTable(t, readProtocolDoc(t), "Methods the server handles")
	sort.Strings(want)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s lists the methods\n%v\nthe server handles\n%v", protocolDoc, got, want)
	}
}

// TestProtocolDocMethodsSent compares the doc's table with every method
// name the package's code passes to call, notify or Notify.
func TestProtocolDocMethodsSent(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sent := regexp.MustCompile(`\.(?:call|notify|Notify)\([^"\n]*"([^"]+)"`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range sent.FindAllSubmatch(b, -1) {
			seen[string(m[1])] = true
		}
	}
	var want []string
	for m := range seen {
		want = append(want, m)
	}
	got := docTable(t, readProtocolDoc(t), "What the server sends")
	sort.Strings(want)
	sort.Strings(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("%s lists as sent\n%v\nthe code sends\n%v", protocolDoc, got, want)
	}
}

func TestProtocolDocSettings(t *testing.T) {
	doc := readProtocolDoc(t)
	var keys []string
	typ := reflect.TypeOf(Config{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "-" {
			continue // never serialised (the API key): documented below the table
		}
		keys = append(keys, name)
	}
	if !strings.Contains(doc, "`apiKey`") {
		t.Errorf("%s does not document the apiKey setting", protocolDoc)
	}
	if got := docTable(t, doc, "Settings"); !slices.Equal(got, keys) {
		t.Errorf("%s lists the settings %v; Config has %v (same order)", protocolDoc, got, keys)
	}
	data := docExample(t, doc, "settings")
	var wrapped struct {
		Askls json.RawMessage `json:"askls"`
	}
	decodeStrict(t, "settings", data, &wrapped)
	checkExampleBytes[Config](t, "settings", wrapped.Askls)
	got, err := DefaultConfig().Merge(data)
	if err != nil {
		t.Fatalf("the settings example is refused: %v", err)
	}
	if got.Model == "" || len(got.Exclude) == 0 {
		t.Errorf("the settings example was not applied: %+v", got)
	}
}

// checkExampleBytes decodes data strictly into a new T and checks that it
// shows every field; it returns the value and data decoded as any.
func checkExampleBytes[T any](t *testing.T, label string, data []byte) (T, any) {
	t.Helper()
	var v T
	decodeStrict(t, label, data, &v)
	var asAny any
	if err := json.Unmarshal(data, &asAny); err != nil {
		t.Fatal(err)
	}
	requireAllFields(t, label, reflect.TypeOf(v), asAny)
	return v, asAny
}
