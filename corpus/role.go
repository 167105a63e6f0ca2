package corpus

import (
	"path"
	"strings"
)

// assetDirs hold the files a server sends to the browser.
var assetDirs = map[string]bool{"static": true, "assets": true, "public": true, "shared": true}

// InAssetDir reports whether p (slash-separated, relative to its root)
// lies under a folder of web assets (static/, assets/, public/, shared/).
// Whether such a file is an Asset depends on the project's own language,
// which index knows.
func InAssetDir(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if assetDirs[strings.ToLower(d)] {
			return true
		}
	}
	return false
}

// InCommandDir reports whether p (slash-separated, relative to its root)
// lies under the root's cmd/ folder or under a folder named for a
// command-line interface: cli, or cli as a part of a name cut at _ or -
// (guts_cli, cli-utils; not client, click). Whether such a file is a
// Tool depends on whether the root is a library, which index knows.
func InCommandDir(p string) bool {
	dirs := strings.Split(path.Dir(p), "/")
	if dirs[0] == "cmd" {
		return true
	}
	for _, d := range dirs {
		for _, part := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return r == '_' || r == '-' }) {
			if part == "cli" {
				return true
			}
		}
	}
	return false
}
