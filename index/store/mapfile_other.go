//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import (
	"io"
	"io/fs"
	"os"
)

// mapFile reads the file at path onto the heap: this platform's files
// are not mapped (mapfile_unix.go). info is the file's, as opened.
func mapFile(path string, _ func(fs.FileInfo) bool) (data []byte, mapped bool, info fs.FileInfo, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, false, nil, err
	}
	data, err = io.ReadAll(f)
	return data, false, info, err
}

func unmapFile([]byte) {}

// fileNumber is 0: this platform's file numbers are not read.
func fileNumber(fs.FileInfo) uint64 { return 0 }
func dropPages([]byte)              {}
func populatePages([]byte)          {}
