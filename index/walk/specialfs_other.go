//go:build !linux

package walk

import (
	"os"
	"path/filepath"
	"strings"
)

// specialFSOf names the special file system f is on, or "": without
// statfs, by the folders that hold them on Unix systems.
func specialFSOf(f *os.File) string { return SpecialFS(filepath.Dir(f.Name())) }

// SpecialFS names the special file system of the folder at path, or "".
func SpecialFS(path string) string {
	p := filepath.ToSlash(path)
	for _, dir := range []string{"/proc", "/sys", "/dev"} {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return dir[1:]
		}
	}
	return ""
}

// specialMounts is nil here: each folder is asked (folder.special).
func specialMounts(string) map[string]string { return nil }
