package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is a subcommand: it gets the arguments after its name and returns
// the process exit status.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// subcommands maps a first argument to its command; with no subcommand (or
// when the first argument is a flag) zproxy serves.
var subcommands = map[string]command{
	"serve":  serveCommand,
	"check":  checkCommand,
	"advise": adviseCommand,
	"help": func(_ context.Context, _ []string, stdout, _ io.Writer) int {
		printUsage(stdout)
		return 0
	},
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, ok := subcommands[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "zproxy: unknown command %q (see zproxy --help)\n", args[0])
			return 2
		}
		return cmd(ctx, args[1:], stdout, stderr)
	}
	return serveCommand(ctx, args, stdout, stderr)
}

// serveCommand resolves the configuration and serves until SIGTERM or
// SIGINT.
func serveCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, rest, err := loadConfig(args, os.LookupEnv, os.ReadFile)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return 0
	}
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("unexpected argument %q", rest[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "zproxy: %v (see zproxy --help)\n", err)
		return 2
	}
	level, _ := cfg.SlogLevel() // validated by loadConfig
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() {
		// Once the first signal has started the shutdown, restore the default
		// handling so that a second signal ends the process at once.
		<-ctx.Done()
		stop()
	}()

	if err := serve(ctx, cfg, logger); err != nil {
		logger.Error("zproxy stopped", "err", err)
		return 1
	}
	logger.Info("zproxy stopped")
	return 0
}
