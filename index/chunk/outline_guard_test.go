package chunk

import (
	"strings"
	"testing"
)

// TestIncludeGuard tries the #define rule on the line below each test
// line: an include guard is no unit, any other #define is.
func TestIncludeGuard(t *testing.T) {
	cases := []struct {
		above, define string
		guard         bool
	}{
		{"#ifndef PANEL_H", "#define PANEL_H", true},
		{"#ifndef PANEL_H\n\n", "#define PANEL_H /* once */", true},
		{"#if !defined(PANEL_H)", "#  define PANEL_H", true},
		{"#if !defined PANEL_H // once", "#define PANEL_H", true},
		{"#ifndef PANEL_H", "#define PANEL_H 1", false},
		{"#ifndef PANEL_H", "#define PANEL_HH", false},
		{"#ifndef PANEL_H", "#define PANEL_H(x) x", false},
		{"#ifdef PANEL_H", "#define PANEL_H", false},
		{"#ifndef OTHER_H", "#define PANEL_H", false},
		{"", "#define PANEL_H", false},
	}
	for _, c := range cases {
		src := c.above + "\n" + c.define + "\nint panel_width(void);\n"
		if c.above == "" {
			src = c.define + "\nint panel_width(void);\n"
		}
		_, syms := File("panel.h", "c", []byte(src))
		unit := false
		for _, s := range syms {
			unit = unit || (s.Kind == "macro" && strings.HasPrefix(s.Name, "PANEL_H"))
		}
		if unit == c.guard {
			t.Errorf("%q then %q: a unit %v, want %v", c.above, c.define, unit, !c.guard)
		}
	}
}
