package walk

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"

	"github.com/askls/askls/index/secret"
)

// Errors of ReadCapped, tested with errors.Is.
var (
	ErrTooLarge   = errors.New("larger than the size limit")
	ErrNotRegular = errors.New("not a regular file")
	ErrSpecialFS  = errors.New("on a special file system")
	ErrSecret     = errors.New("a secret (by its name or its target's)")
)

// ReadCapped reads the file at abs, at most max bytes, with its secrets
// masked (secret.Redact: offsets and lines unchanged). Every file askls
// reads from a workspace goes through it, so that memory stays bounded
// whatever the system reports: the size in the file's metadata is only a
// hint (0 for /proc files, wrong for others); the read itself stops at
// max+1 bytes and a longer file is ErrTooLarge. It never blocks on a FIFO
// (opened non-blocking, then refused) and refuses devices, sockets and
// files of a special file system (proc, sysfs, ...).
func ReadCapped(abs string, max int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, info, fmt.Errorf("%s: %w", abs, ErrNotRegular)
	}
	if name := specialFSOf(f); name != "" {
		return nil, info, fmt.Errorf("%s: %w (%s)", abs, ErrSpecialFS, name)
	}
	data, err := readUpTo(f, info.Size(), max)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", abs, err)
	}
	return secret.Redact(data), info, nil
}

// readUpTo reads r to its end, at most max bytes (ErrTooLarge beyond).
// hint, the size r claims, only sizes the first allocation.
func readUpTo(r io.Reader, hint, max int64) ([]byte, error) {
	if hint < 0 || hint > max {
		hint = max
	}
	buf := make([]byte, 0, hint+1) // +1: a file longer than it claims is seen at once
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > max {
				return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)
			}
			grow := int64(cap(buf))
			if grow < 4096 {
				grow = 4096
			}
			if int64(cap(buf))+grow > max+1 {
				grow = max + 1 - int64(cap(buf))
			}
			buf = slices.Grow(buf, int(grow))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > max {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)
	}
	return buf, nil
}

// SkipReason is the Skip reason recorded for a file ReadCapped refused.
func SkipReason(err error) string {
	switch {
	case errors.Is(err, ErrTooLarge):
		return "too large"
	case errors.Is(err, ErrNotRegular), errors.Is(err, ErrSpecialFS):
		return "special file"
	case errors.Is(err, ErrSecret):
		return "secret"
	}
	return "unreadable"
}
