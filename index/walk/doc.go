// Package walk decides which files of a workspace root may enter the
// index, and reads them safely: the walk itself (Walk: one goroutine per
// core listing folders, its budget, what it skipped and why; a folder is
// listed with getdents and its files stat'ed relative to it on Linux,
// folder_linux.go, through os.Root elsewhere, folder_other.go), the
// ignore rules (.gitignore at every level, .git/info/exclude,
// .asklsignore, the user's global excludes, conformance-tested against
// git; a folder's rules indexed by name, path and extension,
// ruleindex.go), the folders
// never walked and the vendored ones, binaries by name and by content
// (IsBinary), special file systems (/proc, sysfs, ...: from the mount
// table on Linux, specialfs_linux.go), the path globs
// users and models write (Glob, doublestar syntax), and the one bounded
// read every workspace file goes through (ReadCapped: at most a size
// limit whatever the system reports, never blocking on a FIFO, secrets
// masked).
//
// It may import the standard library, index/secret (secret names are
// skipped, reads are masked) and doublestar. It knows nothing of chunks,
// the store or the façade (index), which gives it a Root and Options.
//
// Concurrency: Walk may run on several roots at once (the listings and
// getdents buffers it reuses come from sync.Pools); an *Ignorer is safe
// for concurrent use (it reads ignore files lazily, under a lock; a rule
// list and its index are immutable once read); a
// *Glob is immutable and NewGlob's cache is locked; ReadCapped and the
// other functions hold no state.
package walk
