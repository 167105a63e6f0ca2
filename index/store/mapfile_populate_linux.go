package store

import "golang.org/x/sys/unix"

// mapPopulate is MAP_POPULATE when populate is set (Linux only).
func mapPopulate(populate bool) int {
	if populate {
		return unix.MAP_POPULATE
	}
	return 0
}

// populatePages maps the pages of data, a part of a mapped file that is
// about to be read through, in one call (MADV_POPULATE_READ, Linux 5.14)
// instead of a fault per few pages; where the call is refused, they are
// mapped as they are read.
func populatePages(data []byte) {
	if len(data) > 0 {
		unix.Madvise(data, unix.MADV_POPULATE_READ)
	}
}
