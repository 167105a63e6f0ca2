package main

import (
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// The environment is read here and only here (and by --provider's
// default): the packages below take what it says as options.

// cacheDir is the cache folder of --cache DIR, else $ASKLS_CACHE_DIR
// ("" leaves the user's cache folder to the workspace).
func cacheDir(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv("ASKLS_CACHE_DIR")
}

// threadLimits are $ASKLS_THREADS_MAX (threads kept per workspace) and
// $ASKLS_THREADS_MAX_AGE (a Go duration such as 720h); zero when unset or
// not valid: the store's defaults.
func threadLimits() (int, time.Duration) {
	n, err := strconv.Atoi(os.Getenv("ASKLS_THREADS_MAX"))
	if err != nil || n < 0 {
		n = 0
	}
	age, err := time.ParseDuration(os.Getenv("ASKLS_THREADS_MAX_AGE"))
	if err != nil || age < 0 {
		age = 0
	}
	return n, age
}

// answerDir is where the language server writes answer documents: the
// user's runtime folder ($XDG_RUNTIME_DIR/askls) when the system has one,
// else "" (the server's default, under the user's cache folder).
func answerDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return filepath.Join(d, "askls")
		}
	}
	return ""
}
