package rank

import "testing"

// partStart by its table is partStart by its definition, for every pair
// of bytes.
func TestPartStartTable(t *testing.T) {
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	isUpper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	want := func(a, b byte) bool {
		switch {
		case !isLower(a) && !isUpper(a) && !isDigit(a):
			return a < 0x80
		case isLower(a) && isUpper(b):
			return true
		}
		return isDigit(a) != isDigit(b)
	}
	for a := range 256 {
		for b := range 256 {
			if got := partStart(byte(a), byte(b)); got != want(byte(a), byte(b)) {
				t.Fatalf("partStart(%#x, %#x) = %v", a, b, got)
			}
		}
	}
}
