//go:build !linux

package index

import (
	"os"
	"path/filepath"
	"strings"
)

// specialFSOf names the special file system f is on, or "": without
// statfs, by the folders that hold them on Unix systems.
func specialFSOf(f *os.File) string { return specialFSAt(filepath.Dir(f.Name())) }

// specialFSAt names the special file system of the folder at path, or "".
func specialFSAt(path string) string {
	p := filepath.ToSlash(path)
	for _, dir := range []string{"/proc", "/sys", "/dev"} {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return dir[1:]
		}
	}
	return ""
}
