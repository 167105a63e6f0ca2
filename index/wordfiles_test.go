package index

import (
	"context"
	"reflect"
	"testing"

	fx "github.com/askls/askls/internal/fixture"
)

func TestFilesWithWord(t *testing.T) {
	dir := fx.Tree(t, map[string]string{
		"ctx/ctx.go":    "package ctx\n\nfunc WithCancel() {}\n",
		"net/dial.go":   "package net\n\nfunc dial() { ctx.WithCancel() }\n",
		"net/other.go":  "package net\n\n// withCancelCause is another word.\nfunc withCancelCause() {}\n",
		"srv/notes.txt": "Call WithCancel when you start.\n",
	})
	ctx := context.Background()
	ix := openFixture(t, dir, t.TempDir()).ix
	defer ix.Close()
	got, capped, err := ix.Snapshot().FilesWithWord(ctx, "WithCancel")
	if err != nil || capped {
		t.Fatalf("FilesWithWord: %v (capped %v)", err, capped)
	}
	// The whole word, any case, in code or prose; not a longer identifier.
	if want := []string{"ctx/ctx.go", "net/dial.go", "srv/notes.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	// A word the index stems ("Cache" is held as "cach").
	if got, _, _ := ix.Snapshot().FilesWithWord(ctx, "Dial"); !reflect.DeepEqual(got, []string{"net/dial.go"}) {
		t.Errorf("files with Dial: %v", got)
	}
	if _, _, err := ix.Snapshot().FilesWithWord(ctx, "two words"); err == nil {
		t.Errorf("two words taken as one")
	}
}
