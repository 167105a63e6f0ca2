package agent

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/askls/askls/agent/tools"
)

// textCall is a tool call a model wrote as plain text in its content.
type textCall struct {
	name string
	args tools.Args
}

// parseTextCalls recognises tool calls written as JSON in the content, as
// some models do: one object or a list of objects, optionally in a ```json
// fence or <tool_call> tags, each shaped {"name", "arguments"|"parameters"}
// or {"function": {"name", "arguments"}}; arguments may be an object or a
// JSON string. ok is false unless every object names a known tool.
func parseTextCalls(content string) ([]textCall, bool) {
	s := strings.TrimSpace(content)
	s = strings.TrimPrefix(s, "```json")
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimSuffix(s, "```")
	s = strings.ReplaceAll(s, "<tool_call>", "")
	s = strings.ReplaceAll(s, "</tool_call>", "")
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil, false
	}
	var values []any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false
		}
		if list, ok := v.([]any); ok {
			values = append(values, list...)
		} else {
			values = append(values, v)
		}
	}
	var calls []textCall
	for _, v := range values {
		c, ok := textCallOf(v)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0
}

func textCallOf(v any) (textCall, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return textCall{}, false
	}
	if fn, ok := obj["function"].(map[string]any); ok {
		obj = fn
	}
	name, _ := obj["name"].(string)
	if name == "" {
		name, _ = obj["tool"].(string)
	}
	if !tools.Known(name) {
		return textCall{}, false
	}
	var raw any
	for _, k := range []string{"arguments", "parameters", "args", "input"} {
		if x, ok := obj[k]; ok {
			raw = x
			break
		}
	}
	a := tools.Args{}
	switch x := raw.(type) {
	case nil:
	case map[string]any:
		a = normalizeNumbers(x)
	case string:
		var m map[string]any
		if err := json.Unmarshal([]byte(x), &m); err != nil {
			return textCall{}, false
		}
		a = m
	default:
		return textCall{}, false
	}
	return textCall{name: name, args: a}, true
}

// normalizeNumbers turns json.Number into float64, as encoding/json does
// without UseNumber.
func normalizeNumbers(m map[string]any) tools.Args {
	out := tools.Args{}
	for k, v := range m {
		if n, ok := v.(json.Number); ok {
			f, err := n.Float64()
			if err == nil {
				out[k] = f
				continue
			}
			out[k] = n.String()
			continue
		}
		out[k] = v
	}
	return out
}

// mayBeTextCall reports whether content seen so far could still turn out
// to be a tool call written as text; such content is held back from the
// stream until the turn ends.
func mayBeTextCall(content string) bool {
	s := strings.TrimLeft(content, " \t\r\n")
	if s == "" {
		return true
	}
	for _, p := range []string{"{", "[{", "```json", "<tool_call>"} {
		if strings.HasPrefix(s, p) || strings.HasPrefix(p, s) {
			return true
		}
	}
	return false
}
