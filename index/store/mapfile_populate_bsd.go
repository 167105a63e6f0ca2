//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package store

// mapPopulate is 0: these systems have no MAP_POPULATE; pages are mapped
// as they are read.
func mapPopulate(bool) int { return 0 }

// populatePages does nothing here: pages are mapped as they are read.
func populatePages([]byte) {}
