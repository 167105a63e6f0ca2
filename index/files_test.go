package index

import (
	"context"
	"slices"
	"testing"
)

func TestListFilesFollowsTheIndexRules(t *testing.T) {
	root := writeTxtar(t, "workspace.txtar")
	files, err := ListFiles(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no files listed")
	}
	f := newFixture(t, "workspace.txtar")
	indexed, err := f.ix.Snapshot().Files("")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range indexed {
		if !slices.Contains(files, p) {
			t.Errorf("%s is indexed but not listed", p)
		}
	}
	for _, p := range []string{"build/out.go", "debug.log", "generated.go", "excluded.txt", "node_modules/dep/index.js", "vendor/lib/lib.go"} {
		if slices.Contains(files, p) {
			t.Errorf("%s is ignored but listed", p)
		}
	}
	if _, err := ListFiles(context.Background(), root+"/missing", 0); err == nil {
		t.Error("a missing root gave no error")
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"net/http/server_test.go": true, "net/http/testdata/x.txt": true,
		"net/http/server.go": false, "pkg/test_x.py": true,
	} {
		if got := IsTest(p); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}
