package tools

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Args are a tool call's arguments as the model sent them.
type Args map[string]any

// str returns a string argument. Numbers are accepted and formatted.
func (a Args) str(name string, required bool) (string, error) {
	v, ok := a[name]
	if !ok || v == nil {
		if required {
			return "", fmt.Errorf("missing argument %q (a string)", name)
		}
		return "", nil
	}
	switch x := v.(type) {
	case string:
		if required && strings.TrimSpace(x) == "" {
			return "", fmt.Errorf("argument %q is empty", name)
		}
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	default:
		return "", fmt.Errorf("argument %q must be a string, got %T", name, v)
	}
}

// integer returns an integer argument, def when absent. Strings holding a
// number are accepted (small models send "10").
func (a Args) integer(name string, def int) (int, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case float64:
		return int(x), nil
	case int:
		return x, nil
	case string:
		if strings.TrimSpace(x) == "" {
			return def, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, fmt.Errorf("argument %q must be an integer, got %q", name, x)
		}
		return n, nil
	default:
		return 0, fmt.Errorf("argument %q must be an integer, got %T", name, v)
	}
}

// Key is a canonical form of a call, for the repeat cache.
func (a Args) Key(tool string) string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(tool)
	for _, k := range keys {
		fmt.Fprintf(&b, "\x00%s=%v", k, a[k])
	}
	return b.String()
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
