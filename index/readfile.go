package index

import "github.com/askls/askls/index/walk"

// ReadCapped reads the regular file at abs, at most max bytes, for the
// packages that read workspace files themselves (see walk.ReadCapped: FIFOs,
// devices and special file systems are refused, a longer file is an
// error whatever size the system reports).
func ReadCapped(abs string, max int64) ([]byte, error) {
	data, _, err := walk.ReadCapped(abs, max)
	return data, err
}
