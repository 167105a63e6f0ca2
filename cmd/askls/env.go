package main

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/askls/askls/agent"
)

// The environment is read here and only here: the packages below take
// what it says as options.

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

// modelEnv is what the environment says of the model server: the
// defaults of --ollama-host ($OLLAMA_HOST), and for the openai provider
// only, of --base-url ($OPENAI_BASE_URL) and the API key ($ASKLS_API_KEY,
// else $OPENAI_API_KEY). The agent applies them (agent.Config.Env), so
// that a key meant for an OpenAI-compatible server never goes to Ollama.
func modelEnv() agent.Env {
	key := os.Getenv("ASKLS_API_KEY")
	if key == "" {
		key = os.Getenv("OPENAI_API_KEY")
	}
	return agent.Env{OllamaHost: os.Getenv("OLLAMA_HOST"), BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: key}
}

// providerEnv is $ASKLS_PROVIDER, the default of --provider.
func providerEnv() string { return os.Getenv("ASKLS_PROVIDER") }

// configDir is $XDG_CONFIG_HOME, the folder where git's global ignore
// file is looked for ("": ~/.config, as git does).
func configDir() string { return os.Getenv("XDG_CONFIG_HOME") }
