// Command askls is a language server that answers questions about the code
// in a workspace with citations, and the command line around it.
//
// This file only dispatches: each subcommand lives in a file named after it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/askls/askls/index"
)

// command is one subcommand: run parses its own flags from args.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{
	"serve":   {"run the language server on stdio (the default)", runServe},
	"index":   {"index a tree and print a summary", runIndex},
	"search":  {"search the index", runSearch},
	"ask":     {"ask a question; answers with path:line:col citations", runAsk},
	"chat":    {"ask questions one a line from the input, each a follow-up of the last", runChat},
	"threads": {"list, show or delete the workspace's threads", runThreads},
	"doctor":  {"check that the model server and the model are usable", runDoctor},
	"mcp":     {"serve the Model Context Protocol on stdio (tools and ask for agents)", runMCP},
}

func main() {
	index.TuneProcessSearch()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "askls:", err)
		}
		os.Exit(exitCode(err))
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	if len(args) > 0 {
		// Checked before the default command: `askls --help` lists the
		// commands, it does not print serve's flags.
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(stderr)
			return nil
		case "version", "-version", "--version":
			fmt.Println("askls", version)
			return nil
		}
	}
	name := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	cmd, ok := commands[name]
	if !ok {
		usage(stderr)
		return usageError(fmt.Sprintf("unknown command %q", name))
	}
	return cmd.run(ctx, args)
}

var version = "dev"

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: askls [command] [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'askls COMMAND -h' for a command's flags.")
}

// parseArgs parses fs's flags wherever they stand among args and returns
// the other arguments in order: `askls ask "why?" --no-model` must not send
// "--no-model" to the model as part of the question (the flag package stops
// at the first argument that is not a flag). After "--" everything is an
// argument, so a question may start with a dash.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// usageError is an error in how askls was called (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}
