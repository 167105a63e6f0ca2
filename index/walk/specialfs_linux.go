package walk

import (
	"os"
	"syscall"
)

// specialFS names the file systems whose files are not source code and
// may be endless, block, or change as they are read, by statfs magic.
var specialFS = map[int64]string{
	0x9fa0:     "proc",
	0x62656572: "sysfs",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0x1cd1:     "devpts",
	0xcafe4a11: "bpf",
	0x62656570: "configfs",
	0xde5e81e4: "efivarfs",
	0x6165676c: "pstore",
	0x65735543: "fusectl",
	0x42494e4d: "binfmt_misc",
}

// specialFSOf names the special file system f is on, or "".
func specialFSOf(f *os.File) string {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return ""
	}
	return specialFS[int64(st.Type)]
}

// SpecialFS names the special file system of the folder at path, or "".
func SpecialFS(path string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return ""
	}
	if name := specialFS[int64(st.Type)]; name != "" {
		return name
	}
	if path == "/dev" {
		return "devtmpfs" // a tmpfs; its files are devices
	}
	return ""
}
