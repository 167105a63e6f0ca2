// Command askls-bench is the project's measuring bench, kept out of the
// askls binary users install: `eval` scores search and retrieval-mode
// answers on a question set (testdata/eval), `bench` times indexing,
// updates and search beside plain bleve. docs/benchmarks.md gives the
// commands behind every published figure.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/askls/askls/index"
)

func main() {
	index.TuneProcessSearch()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "askls-bench:", err)
		}
		var u usageError
		if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		usage()
		return usageError("no command")
	}
	switch args[0] {
	case "eval":
		return runEval(ctx, args[1:])
	case "broad":
		return runBroad(ctx, args[1:])
	case "bench":
		return runBench(ctx, args[1:])
	case "serve":
		return runServe(ctx, args[1:])
	case "serial":
		return runSerial(args[1:])
	case "lookups":
		return runLookups(args[1:])
	case "help", "-h", "-help", "--help":
		usage()
		return nil
	}
	usage()
	return usageError(fmt.Sprintf("unknown command %q", args[0]))
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage: askls-bench COMMAND [flags]

commands:
  eval   score search and retrieval-mode answers on a question set
  broad  the broad benchmark: NDCG@10, top-5 and span@3 per half beside plain BM25
  bench  time indexing, updates and search (and plain bleve with --baseline)
  serve  run askls serve as an editor does: time to ready, workspace/symbol, idle memory
  lookups write question sets of identifier lookups drawn from a Go tree's own declarations
  serial where an execution trace of a build has one goroutine working (go tool trace -d=parsed T | askls-bench serial)

Run 'askls-bench COMMAND -h' for a command's flags.`)
}

// usageError is an error in how askls-bench was called (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }
