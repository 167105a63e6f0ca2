package corpus

import (
	"path/filepath"
	"regexp"
	"strings"
)

// versionSuffixRE matches what package managers append to a project's
// folder name: "@v1.8.1" (Go modules), "-1.0.87" (crates, gems), "-v2".
var versionSuffixRE = regexp.MustCompile(`([@-]v?\d+(\.\d+)*([-+.][0-9A-Za-z.]+)?)$`)

// genericFolders are root folder names that do not name a project.
var genericFolders = map[string]bool{"src": true, "source": true, "lib": true, "pkg": true, "package": true, "app": true,
	"code": true, "repo": true, "project": true, "work": true, "workspace": true, "main": true, "master": true,
	"node_modules": true, "dist-packages": true, "site-packages": true, "vendor": true, "root": true, "home": true}

// ProjectName is the name of the project a workspace root holds, read
// from its folder name without a version suffix ("cobra@v1.8.1" is
// cobra, "serde_json-1.0.87" serde_json), lower case; "" when the
// folder's name is generic (src, node_modules, dist-packages). A
// question names the project it is asked in; that name is no evidence of
// which of the project's files answers it, and matches its packaging
// (a Homebrew formula, a spec file) best.
func ProjectName(root string) string {
	name := strings.ToLower(filepath.Base(filepath.Clean(root)))
	name = versionSuffixRE.ReplaceAllString(name, "")
	if genericFolders[name] || name == "." || name == string(filepath.Separator) || len(name) < 2 {
		return ""
	}
	return name
}
