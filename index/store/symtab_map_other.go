//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import "os"

// mapSymtab reads the table file at path onto the heap: this platform's
// table files are not mapped (symtab_map_unix.go).
func mapSymtab(path string) (data []byte, mapped bool, err error) {
	data, err = os.ReadFile(path)
	return data, false, err
}

func unmapSymtab([]byte)     {}
func dropSymtabPages([]byte) {}
