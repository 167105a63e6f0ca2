package walk

import (
	"os"
	"slices"
	"strconv"
	"strings"
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

// specialMounts are the special file systems mounted under the folder
// real (symlinks resolved), by path relative to it, from the mount table
// (/proc/self/mountinfo): a walk asks it instead of calling fstatfs on
// each folder (the kernel's 5,400). nil when the table cannot be read:
// each folder is then asked (folder.special).
func specialMounts(real string) map[string]string {
	if real == "" {
		return nil
	}
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	return parseSpecialMounts(string(data), real)
}

// parseSpecialMounts reads a mountinfo table (proc(5)): for each line,
// the mount point is its fifth field (octal escapes for space, tab,
// newline and backslash) and the file system type follows the " - "
// separator. A devtmpfs (/dev) counts as special: its files are devices.
func parseSpecialMounts(table, real string) map[string]string {
	out := map[string]string{}
	prefix := strings.TrimSuffix(real, "/") + "/"
	for line := range strings.Lines(table) {
		fields := strings.Fields(line)
		sep := slices.Index(fields, "-")
		if len(fields) < 5 || sep < 5 || sep+1 >= len(fields) {
			continue
		}
		fsType := fields[sep+1]
		if !specialNames[fsType] {
			continue
		}
		if rel, ok := strings.CutPrefix(unescapeMount(fields[4]), prefix); ok && rel != "" {
			out[rel] = fsType
		}
	}
	return out
}

// specialNames are the types specialFS names, as the mount table writes
// them, and devtmpfs.
var specialNames = func() map[string]bool {
	m := map[string]bool{"devtmpfs": true}
	for _, name := range specialFS {
		m[name] = true
	}
	return m
}()

// unescapeMount undoes the mount table's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
