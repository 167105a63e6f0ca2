//go:build !linux

package store

// adviseHugePages does nothing here: see hugepages_linux.go.
func adviseHugePages[T any](s []T) {}
