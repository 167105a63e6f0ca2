package walk

import "io/fs"

// dirent is one entry of a folder's listing.
type dirent struct {
	name string
	typ  fs.FileMode // its type bits (0: a regular file), or typeUnknown
}

// typeUnknown is a listed entry's type when the file system does not
// give it with the listing: the walk stats the entry to learn it.
const typeUnknown = ^fs.FileMode(0)

// fileStat is what the walk keeps of a file's metadata.
type fileStat struct {
	size  int64
	mtime int64       // UnixNano
	typ   fs.FileMode // its type bits, as dirent's
}

// statOnce is known when set, else the folder's stat of name.
func (f *folder) statOnce(name string, known *fileStat) (fileStat, error) {
	if known != nil {
		return *known, nil
	}
	return f.stat(name)
}
