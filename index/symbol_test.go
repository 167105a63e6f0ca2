package index

import "testing"

func TestQualifiedName(t *testing.T) {
	for _, tc := range []struct {
		s    Symbol
		want string
	}{
		{Symbol{Name: "ServeHTTP", Container: "Server"}, "Server.ServeHTTP"},
		{Symbol{Name: "ListenAndServe"}, "ListenAndServe"},
	} {
		if got := tc.s.QualifiedName(); got != tc.want {
			t.Errorf("%+v.QualifiedName() = %q, want %q", tc.s, got, tc.want)
		}
	}
}
