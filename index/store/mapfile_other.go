//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import "os"

// mapFile reads the file at path onto the heap: this platform's files
// are not mapped (mapfile_unix.go).
func mapFile(path string, _ bool) (data []byte, mapped bool, err error) {
	data, err = os.ReadFile(path)
	return data, false, err
}

func unmapFile([]byte) {}
func dropPages([]byte) {}
