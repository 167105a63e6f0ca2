package corpus

import (
	"path"
	"slices"
	"strings"
)

// builtDirs are the folders packages put build output in.
var builtDirs = map[string]bool{"dist": true, "build": true, "out": true, "umd": true, "esm": true, "cjs": true, "bundle": true, "bundles": true}

// scriptExts are the extensions of build output that IsBuiltCopy
// recognises: JavaScript compiled or bundled from sources in the tree.
var scriptExts = map[string]bool{".js": true, ".cjs": true, ".mjs": true, ".jsx": true}

// sourceDirs are the folders packages keep their sources in: a script
// under one is code even with a source map beside it (a package that
// ships lib/*.js compiled with maps ships nothing else to read).
var sourceDirs = map[string]bool{"lib": true, "src": true}

// typeScriptExts are the sources JavaScript is compiled from.
var typeScriptExts = []string{".ts", ".tsx", ".mts", ".cts"}

// IsBuiltCopy reports whether the script p is build output of sources
// that are in the tree too: a bundle under dist/ (or build/, umd/, …)
// of a package that also ships its src/ or lib/, or a .js file compiled
// from a TypeScript file of the same name (beside it, or at the same
// place under a package's src/). People read the sources; the copy
// repeats them, often several times over (.js, .cjs, a browser bundle).
// A package that ships only its build output (no sources beside it) is
// not a copy: its build output is all there is to read.
//
// A script with its source map beside it (NAME.js.map) is build output
// too when its folder, or the folder above, holds lib/ or src/ and it is
// not itself under one: mocha ships its browser bundle mocha.js at the
// package root, its sources in lib/. A package that ships lib/*.js with
// their maps keeps them as code, and so does one that ships only
// dist/index.js and its map (express's dependency path-to-regexp).
// hasFile and hasDir say whether the tree holds a file or a folder.
func IsBuiltCopy(p string, hasFile, hasDir func(string) bool) bool {
	ext := path.Ext(p)
	if !scriptExts[ext] {
		return false
	}
	dirs := strings.Split(p, "/")
	if hasFile(p+".map") && besideSources(dirs, hasDir) {
		return true
	}
	for i, d := range dirs[:len(dirs)-1] {
		if builtDirs[d] {
			pkg := strings.Join(dirs[:i], "/")
			if hasDir(path.Join(pkg, "src")) || hasDir(path.Join(pkg, "lib")) {
				return true
			}
		}
	}
	stem := strings.TrimSuffix(p, ext)
	for _, ts := range typeScriptExts {
		if hasFile(stem + ts) {
			return true
		}
	}
	stemDirs := strings.Split(stem, "/")
	for i := range stemDirs[:len(stemDirs)-1] {
		pkg, rest := strings.Join(stemDirs[:i], "/"), strings.Join(stemDirs[i:], "/")
		for _, ts := range typeScriptExts {
			if hasFile(path.Join(pkg, "src", rest) + ts) {
				return true
			}
		}
	}
	return false
}

// besideSources reports whether the script whose path is split into
// dirs lies beside sources: not under a source folder, and its folder or
// the folder above holds one.
func besideSources(dirs []string, hasDir func(string) bool) bool {
	folders := dirs[:len(dirs)-1]
	if slices.ContainsFunc(folders, func(d string) bool { return sourceDirs[d] }) {
		return false
	}
	for up := 0; up <= 1 && up <= len(folders); up++ {
		pkg := strings.Join(folders[:len(folders)-up], "/")
		for d := range sourceDirs {
			if hasDir(path.Join(pkg, d)) {
				return true
			}
		}
	}
	return false
}
