//go:build !linux

package walk

import (
	"io/fs"
	"os"
)

// folder is a folder open for the walk: its files are stat'ed relative
// to it (one name to look up, not the whole path).
type folder struct {
	root  *os.Root
	abs   string
	infos map[string]fs.FileInfo // what the listing stat'ed (os.Root's listing stats every entry)
}

// openFolder opens the folder at abs.
func openFolder(abs string) (*folder, error) {
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &folder{root: root, abs: abs}, nil
}

func (f *folder) close() { f.root.Close() }

// special names the special file system the folder is on, or "".
func (f *folder) special() string { return SpecialFS(f.abs) }

// list appends the folder's entries to out.
func (f *folder) list(out []dirent) ([]dirent, error) {
	d, err := f.root.Open(".")
	if err != nil {
		return nil, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	f.infos = make(map[string]fs.FileInfo, len(entries))
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			f.infos[e.Name()] = info
		}
		out = append(out, dirent{name: e.Name(), typ: e.Type()})
	}
	return out, nil
}

// stat is the size, modification time and type of the folder's entry
// name, not following a symlink.
func (f *folder) stat(name string) (fileStat, error) {
	info, ok := f.infos[name]
	if !ok {
		var err error
		if info, err = f.root.Lstat(name); err != nil {
			return fileStat{}, err
		}
	}
	return fileStat{size: info.Size(), mtime: info.ModTime().UnixNano(), typ: info.Mode().Type()}, nil
}
