package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
)

// proxyNotes is the part of gcx help proxy that flags cannot say: where
// the command goes in a host's configuration, and what it changes.
const proxyNotes = `The host starts gcx proxy in place of the server. In a host's mcpServers
configuration (Claude Desktop, and the many hosts that read the same JSON):

  {"mcpServers": {"memory": {"command": "gcx",
    "args": ["proxy", "--", "npx", "-y", "@modelcontextprotocol/server-memory"]}}}

Every message passes byte for byte, in order, except the results of
tools/call: where a result's text block holds the JSON of the tool's value,
the model reads GCX1 instead when it is cheaper (--mode auto) or always
(--mode gcx); structuredContent stays JSON and _meta names the format. A host
that asks for GCX1 itself gets exactly what the MCP binding says; a server
that offers GCX1 itself is asked for it and its answer passed on. Error
results, prose, images, batches and lines that are not JSON pass untouched
(the last reported on stderr when the proxy notices them).
A message longer than --max-message-bytes passes untouched, streamed.
Section 15.9 of docs/wire-format.md states these rules (PRX-1 to PRX-6).

--stats FILE appends to FILE one JSON line per tools/call result: the tool,
the format the model read, the cl100k_base tokens and bytes of the text the
server wrote and of the text the model read, the milliseconds the proxy took,
and why a result was left alone; never what was asked or answered. gcx stats
FILE sums it up. Tokens are counted off the call's path; a call that finds
that counting 1,024 results (or 64 MiB of text) behind is not recorded, and
the file counts it. A line that cannot be written is reported on stderr and
the session goes on.

exit status: 0 the host closed the session (stdin or, with --listen, a
signal) and the server's output reached it; 2 usage; 4 the server could
not be started or ended first, a stream failed, or lines could not be
written to the --stats file (stderr says which).`

func runProxy(c *subcommand, args []string, s streams) (code int) {
	fs := c.flags(s.stderr)
	cfg := proxyFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	opts, err := cfg.options()
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitUsage
	}
	opts.Log = s.stderr
	command := fs.Args()
	overHTTP := cfg.listen != "" || cfg.upstream != ""
	if overHTTP && (cfg.listen == "" || cfg.upstream == "" || len(command) > 0) {
		fmt.Fprintf(s.stderr, "gcx proxy: --listen and --upstream go together, without a command: gcx proxy --listen ADDR --upstream URL\n")
		return exitUsage
	}
	if !overHTTP && len(command) == 0 {
		fmt.Fprintf(s.stderr, "gcx proxy: no server to run: gcx proxy [flags] -- COMMAND [ARGS...]\n")
		return exitUsage
	}
	if cfg.stats != "" {
		closeStats, err := openStats(cfg.stats, &opts, s)
		if err != nil {
			fmt.Fprintf(s.stderr, "gcx proxy: --stats: %v\n", err)
			return exitIO
		}
		defer func() { code = closeStats(code) }()
	}
	if overHTTP {
		return runProxyHTTP(cfg, opts, s)
	}
	p, err := proxy.New(opts)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = s.stderr
	err = p.RunStdio(ctx, cmd, s.stdin, s.stdout)
	return proxyExit(s, err)
}

// openStats opens the --stats file for append and gives opts its
// recorder. The function it returns closes both, reports what could not be
// written, and returns the exit status: code, or exitIO for a line lost.
func openStats(name string, opts *proxy.Options, s streams) (func(code int) int, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	rec, err := proxy.NewRecorder(f, s.stderr)
	if err != nil {
		f.Close()
		return nil, err
	}
	opts.Stats = rec
	return func(code int) int {
		err := errors.Join(rec.Close(), f.Close())
		if err == nil {
			return code
		}
		fmt.Fprintf(s.stderr, "gcx proxy: --stats %s: %v\n", name, err)
		if code == exitOK {
			return exitIO
		}
		return code
	}, nil
}

// runProxyHTTP serves the Streamable HTTP proxy until a signal stops it.
func runProxyHTTP(cfg *proxyConfig, opts proxy.Options, s streams) int {
	h, err := proxy.NewHTTP(opts, cfg.upstream)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	}
	fmt.Fprintf(s.stderr, "gcx proxy: listening on http://%s, passing every request on to %s\n", ln.Addr(), cfg.upstream)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	case <-ctx.Done():
		// Streams stay open as long as their hosts keep them: give
		// them a moment, then close.
		shutdown, cancel := context.WithTimeout(context.Background(), proxy.ShutdownGrace)
		defer cancel()
		srv.Shutdown(shutdown)
		return exitOK
	}
}

// proxyExit reports how the session ended and returns the exit status.
func proxyExit(s streams, err error) int {
	var ended *proxy.ServerEndedError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(s.stderr, "gcx proxy: stopped by a signal; the server was asked to stop")
		return exitOK
	case errors.As(err, &ended):
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	}
	fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
	return exitIO
}

// proxyConfig holds gcx proxy's flags.
type proxyConfig struct {
	mode       string
	exempt     listFlag
	layouts    listFlag
	maxMessage int
	listen     string
	upstream   string
	stats      string
}

// listFlag is a flag that may be given more than once, each time with one
// value or several separated by commas.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

func proxyFlags(fs *flag.FlagSet) *proxyConfig {
	cfg := &proxyConfig{}
	fs.StringVar(&cfg.mode, "mode", string(binding.ModeAuto), "`MODE`: auto writes GCX1 where it costs the model fewer tokens than the text it replaces, gcx always, off never")
	fs.Var(&cfg.exempt, "exempt", "leave the results of these `TOOLS` (comma-separated, or the flag repeated) as the server wrote them")
	fs.Var(&cfg.layouts, "layout", "`TOOL=DECLARED`: write TOOL's results by the layout of the declared tool DECLARED (section 14.6 of docs/wire-format.md); repeatable")
	fs.StringVar(&cfg.listen, "listen", "", "serve MCP's Streamable HTTP transport on `ADDR` (host:port), in front of --upstream")
	fs.StringVar(&cfg.upstream, "upstream", "", "the Streamable HTTP `URL` of the MCP server, with --listen; the host connects to the same path on ADDR")
	fs.StringVar(&cfg.stats, "stats", "", "append one JSON line per tools/call result to `FILE`: tool, format, tokens and bytes before and after, time added, why left alone (gcx stats FILE sums it up)")
	fs.IntVar(&cfg.maxMessage, "max-message-bytes", proxy.DefaultMaxMessageBytes, "read messages of up to `N` bytes whole; a longer one passes untouched")
	return cfg
}

func (cfg *proxyConfig) options() (proxy.Options, error) {
	opts := proxy.Options{Binding: binding.ServerOptions{Mode: binding.Mode(cfg.mode)}, MaxMessageBytes: cfg.maxMessage}
	if cfg.maxMessage <= 0 {
		return opts, fmt.Errorf("--max-message-bytes %d: a message limit is a positive count of bytes", cfg.maxMessage)
	}
	tools := map[string]binding.ToolOptions{}
	for _, name := range cfg.exempt {
		tools[name] = binding.ToolOptions{Mode: binding.ModeOff}
	}
	for _, l := range cfg.layouts {
		name, declared, ok := strings.Cut(l, "=")
		if !ok || name == "" || declared == "" {
			return opts, fmt.Errorf("--layout %q: want TOOL=DECLARED", l)
		}
		if _, ok := jsonmap.Lookup(declared); !ok {
			return opts, fmt.Errorf("--layout %q: %q is no declared tool (section 14.6 of docs/wire-format.md lists them)", l, declared)
		}
		t := tools[name]
		t.Name = declared
		tools[name] = t
	}
	if len(tools) > 0 {
		opts.Binding.Tools = tools
	}
	return opts, nil
}
