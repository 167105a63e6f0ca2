package walk

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// TestParseSpecialMounts: the special file systems of a mount table, by
// path under the root (its own mount and those outside it left out), the
// table's octal escapes undone; other file systems are not special.
func TestParseSpecialMounts(t *testing.T) {
	table := `21 26 0:20 / /proc rw,relatime - proc proc rw
22 26 0:21 / /sys rw,relatime - sysfs sysfs rw
23 26 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334416k
25 23 0:23 / /dev/pts rw,relatime - devpts devpts rw,mode=600
26 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
40 26 0:30 / /home/u/src/chroot/proc rw,relatime shared:7 - proc proc rw
41 26 0:31 / /home/u/src/my\040mounts/sys rw,relatime - sysfs sysfs rw
42 26 0:32 / /home/u/src/build rw,relatime - tmpfs tmpfs rw
43 26 0:33 / /home/u/src rw,relatime - proc proc rw
44 26 0:34 / /home/u/srcs/proc rw,relatime - proc proc rw
a line cut short
`
	for _, c := range []struct {
		real string
		want map[string]string
	}{
		{"/", map[string]string{"proc": "proc", "sys": "sysfs", "dev": "devtmpfs", "dev/pts": "devpts",
			"home/u/src/chroot/proc": "proc", "home/u/src/my mounts/sys": "sysfs", "home/u/src": "proc", "home/u/srcs/proc": "proc"}},
		{"/home/u/src", map[string]string{"chroot/proc": "proc", "my mounts/sys": "sysfs"}},
		{"/home/u/src/", map[string]string{"chroot/proc": "proc", "my mounts/sys": "sysfs"}},
		{"/srv", map[string]string{}},
	} {
		if got := parseSpecialMounts(table, c.real); !maps.Equal(got, c.want) {
			t.Errorf("under %s: %v, want %v", c.real, got, c.want)
		}
	}
}

// TestWalkAsksTheMountTableForSpecialFolders: a folder the mount table
// names as a special file system is not entered; the others are.
func TestWalkAsksTheMountTableForSpecialFolders(t *testing.T) {
	root := t.TempDir()
	for rel, content := range map[string]string{"src/a.go": "package a\n", "proc/self/status": "x\n"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := &walker{root: Root{Abs: root, Real: root, Ignore: NewIgnorer(root, nil, t.TempDir())}, skipped: map[string]int{},
		mounts: map[string]string{"proc": "proc"}}
	if err := w.walk(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := walked(w)
	if len(got) != 1 || got[0] != "src/a.go" || w.skipped["special file system"] != 1 {
		t.Errorf("walked %v, skipped %v; want src/a.go only and one special file system", got, w.skipped)
	}
}
