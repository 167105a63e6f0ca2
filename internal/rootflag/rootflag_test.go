package rootflag

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/askls/askls/index"
)

func TestFlagsOptions(t *testing.T) {
	var f Flags
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.Register(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	o := f.Options()
	if len(o.Roots) != 1 || o.Roots[0] != "." || o.MaxFileBytes != index.DefaultMaxFileBytes || o.Runtime == nil {
		t.Errorf("defaults: %+v", o)
	}
	if err := fs.Parse([]string{"--root", "a", "--root", "b", "--cache", "c", "--max-files", "-1", "--allow-broad-root"}); err != nil {
		t.Fatal(err)
	}
	o = f.Options()
	if strings.Join(o.Roots, ",") != "a,b" || o.CacheDir != "c" || o.MaxFiles != -1 || !o.AllowBroadRoots {
		t.Errorf("parsed: %+v", o)
	}
	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	for _, want := range []string{"default 500000;", "default 8 GiB;"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("help does not say %q:\n%s", want, help.String())
		}
	}
}

func TestCheckBroadRoots(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // os.UserHomeDir on Windows
	if err := (Flags{}).CheckBroadRoots([]string{home}); err == nil || !strings.Contains(err.Error(), "--allow-broad-root") {
		t.Errorf("home folder as a root: %v", err)
	}
	if err := (Flags{AllowBroadRoot: true}).CheckBroadRoots([]string{home}); err != nil {
		t.Errorf("with --allow-broad-root: %v", err)
	}
	if err := (Flags{}).CheckBroadRoots([]string{t.TempDir()}); err != nil {
		t.Errorf("a project folder: %v", err)
	}
}
