package walk

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// folder is a folder open for the walk: listed with getdents into a
// reused buffer, its files stat'ed relative to it (fstatat), with no
// os.DirEntry or os.FileInfo made per entry (a kernel tree: 80,000 of
// each, and os.Root's listing stats every entry, folders and ignored
// files too).
type folder struct {
	fd  int
	abs string
}

// openFolder opens the folder at abs.
func openFolder(abs string) (*folder, error) {
	for {
		fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
		return &folder{fd: fd, abs: abs}, nil
	}
}

func (f *folder) close() { unix.Close(f.fd) }

// special names the special file system the folder is on, or "" (see
// SpecialFS).
func (f *folder) special() string {
	var st unix.Statfs_t
	if err := unix.Fstatfs(f.fd, &st); err == nil {
		if name := specialFS[int64(st.Type)]; name != "" {
			return name
		}
	}
	if f.abs == "/dev" {
		return "devtmpfs"
	}
	return ""
}

// direntBufs are getdents buffers, reused across folders.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// list appends the folder's entries but "." and ".." to out, in the
// order the system gives them.
func (f *folder) list(out []dirent) ([]dirent, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := unix.Getdents(f.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "getdents", Path: f.abs, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		out = appendDirents(out, buf[:n])
	}
}

// The layout of struct linux_dirent64.
const (
	direntIno    = 0
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// appendDirents appends the entries of a getdents buffer to out.
func appendDirents(out []dirent, buf []byte) []dirent {
	out = slices.Grow(out, countDirents(buf))
	for len(buf) >= direntName {
		reclen := int(binary.NativeEndian.Uint16(buf[direntReclen:]))
		if reclen < direntName || reclen > len(buf) {
			break // not a record: never from the kernel
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		if binary.NativeEndian.Uint64(rec[direntIno:]) == 0 {
			continue // deleted
		}
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if string(name) == "." || string(name) == ".." {
			continue
		}
		out = append(out, dirent{name: string(name), typ: direntMode(rec[direntType])})
	}
	return out
}

// countDirents counts the records of a getdents buffer, so that
// appendDirents grows its slice once.
func countDirents(buf []byte) int {
	n := 0
	for len(buf) >= direntName {
		reclen := int(binary.NativeEndian.Uint16(buf[direntReclen:]))
		if reclen < direntName || reclen > len(buf) {
			break
		}
		buf = buf[reclen:]
		n++
	}
	return n
}

// direntMode is the type of a d_type; typeUnknown when the file system
// did not say.
func direntMode(t byte) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_UNKNOWN:
		return typeUnknown
	}
	return fs.ModeIrregular // a device, a FIFO, a socket
}

// stat is the size, modification time and type of the folder's entry
// name, not following a symlink.
func (f *folder) stat(name string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(f.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, &fs.PathError{Op: "fstatat", Path: f.abs + "/" + name, Err: err}
		}
		break
	}
	typ := fs.ModeIrregular
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		typ = 0
	case unix.S_IFDIR:
		typ = fs.ModeDir
	case unix.S_IFLNK:
		typ = fs.ModeSymlink
	}
	return fileStat{size: st.Size, mtime: st.Mtim.Nano(), typ: typ}, nil
}
