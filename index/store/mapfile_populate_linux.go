package store

import "golang.org/x/sys/unix"

// mapPopulate is MAP_POPULATE when populate is set (Linux only).
func mapPopulate(populate bool) int {
	if populate {
		return unix.MAP_POPULATE
	}
	return 0
}
