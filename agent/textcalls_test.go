package agent

import (
	"strings"
	"testing"
)

func TestParseTextCalls(t *testing.T) {
	tests := []struct {
		in    string
		names []string
	}{
		{`{"name":"grep","arguments":{"pattern":"x"}}`, []string{"grep"}},
		{`[{"name":"grep","arguments":{"pattern":"x"}},{"name":"outline","arguments":{"path":"a.go"}}]`, []string{"grep", "outline"}},
		{"{\"name\":\"grep\",\"arguments\":{\"pattern\":\"x\"}}\n{\"name\":\"list_files\",\"arguments\":{\"glob\":\"*\"}}", []string{"grep", "list_files"}},
		{`{"name":"grep","arguments":{"pattern":"x"}} and more text`, nil},
		{`{"name":"nope","arguments":{}}`, nil},
		{`{"answer": 42}`, nil},
		{`The answer is {"name":"grep"}`, nil},
		{`{"name":"grep","arguments":"not json"}`, nil},
	}
	for _, tt := range tests {
		calls, ok := parseTextCalls(tt.in)
		var names []string
		for _, c := range calls {
			names = append(names, c.name)
		}
		if ok != (tt.names != nil) || strings.Join(names, ",") != strings.Join(tt.names, ",") {
			t.Errorf("parseTextCalls(%q) = %v %v, want %v", tt.in, names, ok, tt.names)
		}
	}
}
