package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

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

Run that command line in a terminal first and paste an initialize request:
the server's answer comes back on one line. docs/mcp.md has the line to paste,
what to do when a host says it failed to connect, and where hosts keep logs.

Every message passes byte for byte, in order, except the results of
tools/call: where a result's text block holds the JSON of the tool's value,
the model reads GCX1 instead when it is cheaper (--mode auto) or always
(--mode gcx); structuredContent stays JSON and _meta names the format. A host
that asks for GCX1 itself gets exactly what the MCP binding says; a server
that offers GCX1 itself is asked for it and its answer passed on. Error
results, prose, images, batches and lines that are not JSON pass untouched
(the last reported on stderr when the proxy notices them).
A message longer than --max-message-bytes passes untouched, streamed.

With --upstream URL it serves Streamable HTTP on --listen (127.0.0.1:8931 by
default) at URL's path alone, for requests whose Host and Origin are its own
or allowed (--allow-host, --allow-origin): a web page on another origin
cannot reach the server's tools. The host's Authorization and Cookie are not
passed on unless --forward-credentials; --upstream-header-file gives the
upstream its own. Each session's state is kept apart, made only for a
session the upstream began through the proxy. An address other machines can
reach needs --public and a token (--token-file or GCX_PROXY_TOKEN) that
every host sends as Authorization: Bearer TOKEN. docs/security.md is the
threat model.
Section 15.9 of docs/wire-format.md states these rules (PRX-1 to PRX-9).

--stats FILE appends to FILE one JSON line per tools/call result: the server
(the name it gives itself, or --server-name), the tool, the format the model read, the cl100k_base tokens and bytes of the text the
server wrote and of the text the model read, the milliseconds the proxy took,
and why a result was left alone; never what was asked or answered. gcx stats
FILE sums it up. Tokens are counted off the call's path; a call that finds
that counting 1,024 results (or 64 MiB of text) behind is not recorded, and
the file counts it. A line that cannot be written is reported on stderr and
the session goes on.

Over stdio the server and the processes it starts run in a process group
of their own, which ends with the session however the session ends: the
end of stdin, SIGHUP (the terminal closed), SIGINT, SIGTERM or SIGQUIT
(the group is sent SIGTERM, then SIGKILL after 5 seconds), and SIGKILL of
the proxy itself, after which a watchdog process stops the group (on
Windows, a job object ends the server and its children).

exit status: 0 the host closed the session (stdin or, with --listen, a
signal) and the server's output reached it; 2 usage; 4 the server could
not be started or ended first, a stream failed, or lines could not be
written to the --stats file (stderr says which); 128+N over stdio, the
signal N ended the session (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 143
SIGTERM), after the server's group was stopped.`

func runProxy(c *subcommand, args []string, s streams) (code int) {
	if len(args) == 2 && args[0] == watchGroupArg {
		return runWatchdog(args[1], s)
	}
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
	if overHTTP && (cfg.upstream == "" || len(command) > 0) {
		fmt.Fprintf(s.stderr, "gcx proxy: --upstream names the server, without a command: gcx proxy --upstream URL [--listen ADDR]\n")
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
	ctx, stop := stopSignals()
	defer stop()
	// main ignores SIGPIPE, and an ignored signal stays ignored across
	// exec: the server, and all it starts, would inherit it. Caught
	// instead, a write to a closed pipe stays an error here [WIRE-5], and
	// the server starts with the default.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = s.stderr
	err = p.RunStdioWatched(ctx, cmd, s.stdin, s.stdout, watchdog(s))
	return proxyExit(s, err, context.Cause(ctx))
}

// watchGroupArg, as gcx proxy's only arguments with a process group id,
// makes this process the watchdog of a stdio session's server
// (proxy.WatchGroup): gcx proxy starts its own executable so. It is no
// flag a user gives, and is not in gcx help.
const watchGroupArg = "--watch-server-group"

// watchdog is the command of the watchdog that stops the server's process
// group should this process be killed (SIGKILL), nil when this executable
// cannot be found again.
func watchdog(s streams) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	cmd := exec.Command(exe, "proxy", watchGroupArg)
	cmd.Stderr = s.stderr
	return cmd
}

// runWatchdog is the watchdog's life: until the proxy ends, whichever
// way.
func runWatchdog(arg string, s streams) int {
	pgid, err := strconv.Atoi(arg)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %s %q: want a process group id\n", watchGroupArg, arg)
		return exitUsage
	}
	if err := proxy.WatchGroup(s.stdin, pgid); err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	}
	return exitOK
}

// stopSignals returns a context cancelled, with a *stopSignal as its
// cause, by the first of the signals that end a stdio session: the
// host's or the user's request to stop (SIGTERM, SIGINT), the terminal's
// end (SIGHUP) and SIGQUIT. Left to Go's defaults, SIGHUP and SIGQUIT
// would end the proxy at once and leave the server running in its own
// process group, which the terminal's signals no longer reach. A signal
// ignored when gcx started (nohup) stays ignored.
func stopSignals() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var sigs []os.Signal
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT} {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case sig := <-ch:
			cancel(&stopSignal{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// stopSignal is the signal that stopped a session.
type stopSignal struct{ sig os.Signal }

func (s *stopSignal) Error() string { return "stopped by " + signalName(s.sig) }

// exitCode is the status of a process a signal ended, as shells give it.
func (s *stopSignal) exitCode() int {
	if n, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitIO
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
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
	hopts, err := cfg.httpOptions(opts, os.Getenv)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitUsage
	}
	h, err := proxy.NewHTTP(hopts)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", hopts.Listen)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	}
	endpoint := h.Upstream()
	if u, err := url.Parse(endpoint); err == nil {
		endpoint = u.Path
	}
	fmt.Fprintf(s.stderr, "gcx proxy: listening on http://%s%s, passing MCP on to %s\n", ln.Addr(), endpoint, h.Upstream())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := h.Serve(ctx, ln); err != nil {
		fmt.Fprintf(s.stderr, "gcx proxy: %v\n", err)
		return exitIO
	}
	return exitOK
}

// DefaultListen is where gcx proxy --upstream listens without --listen:
// this machine alone [PRX-7].
const DefaultListen = "127.0.0.1:8931"

// httpOptions reads the HTTP front's flags: the token from its file or
// from GCX_PROXY_TOKEN, the upstream's own headers from theirs.
func (cfg *proxyConfig) httpOptions(opts proxy.Options, getenv func(string) string) (proxy.HTTPOptions, error) {
	h := proxy.HTTPOptions{
		Options:            opts,
		Upstream:           cfg.upstream,
		Listen:             cmp.Or(cfg.listen, DefaultListen),
		AllowHosts:         cfg.allowHosts,
		AllowOrigins:       cfg.allowOrigins,
		ForwardCredentials: cfg.forwardCredentials,
	}
	switch {
	case cfg.tokenFile != "":
		b, err := os.ReadFile(cfg.tokenFile)
		if err != nil {
			return h, fmt.Errorf("--token-file: %v", err)
		}
		h.Token = strings.TrimSpace(string(b))
		if h.Token == "" {
			return h, fmt.Errorf("--token-file %s is empty", cfg.tokenFile)
		}
	case getenv("GCX_PROXY_TOKEN") != "":
		h.Token = strings.TrimSpace(getenv("GCX_PROXY_TOKEN"))
	}
	if err := proxy.CheckListen(h.Listen, cfg.public, h.Token); err != nil {
		return h, err
	}
	if cfg.upstreamHeaderFile != "" {
		b, err := os.ReadFile(cfg.upstreamHeaderFile)
		if err != nil {
			return h, fmt.Errorf("--upstream-header-file: %v", err)
		}
		h.UpstreamHeader = http.Header{}
		for i, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			name, value, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(strings.TrimSpace(name), " \t") {
				// The line is not quoted: it may hold a secret.
				return h, fmt.Errorf("--upstream-header-file %s, line %d: want Name: value", cfg.upstreamHeaderFile, i+1)
			}
			h.UpstreamHeader.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	return h, nil
}

// proxyExit reports how the session ended and returns the exit status;
// cause is why the session's context ended, if it did.
func proxyExit(s streams, err, cause error) int {
	var ended *proxy.ServerEndedError
	var stopped *stopSignal
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) && errors.As(cause, &stopped):
		fmt.Fprintf(s.stderr, "gcx proxy: %v; the server and its process group were stopped\n", stopped)
		return stopped.exitCode()
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
	maxCalls   int
	maxBuffer  int64
	listen     string
	upstream   string
	stats      string
	serverName string

	allowHosts, allowOrigins listFlag
	public                   bool
	tokenFile                string
	forwardCredentials       bool
	upstreamHeaderFile       string
	draft                    *string // proxydraft.go
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
	fs.StringVar(&cfg.upstream, "upstream", "", "serve MCP's Streamable HTTP transport in front of the MCP server at `URL`; the host connects to the same path on --listen")
	fs.StringVar(&cfg.listen, "listen", "", "with --upstream, listen on `ADDR` (host:port); default "+DefaultListen+". A non-loopback address needs --public and a token")
	fs.Var(&cfg.allowHosts, "allow-host", "with --upstream, also accept requests whose Host is one of these `NAMES` (name or name:port; loopback names always are)")
	fs.Var(&cfg.allowOrigins, "allow-origin", "with --upstream, also accept requests from web pages of these `ORIGINS` (scheme://host:port); requests without Origin are accepted")
	fs.BoolVar(&cfg.public, "public", false, "with --upstream, allow a --listen address other machines can reach; needs a token")
	fs.StringVar(&cfg.tokenFile, "token-file", "", "with --upstream, every host must send Authorization: Bearer TOKEN, TOKEN being this `FILE`'s content (or $GCX_PROXY_TOKEN)")
	fs.BoolVar(&cfg.forwardCredentials, "forward-credentials", false, "with --upstream, pass the host's Authorization and Cookie headers on to the upstream (off: they are dropped)")
	fs.StringVar(&cfg.upstreamHeaderFile, "upstream-header-file", "", "with --upstream, send the headers in `FILE` (Name: value, a line each) to the upstream: its own credentials")
	fs.StringVar(&cfg.stats, "stats", "", "append one JSON line per tools/call result to `FILE`: tool, format, tokens and bytes before and after, time added, why left alone (gcx stats FILE sums it up)")
	fs.StringVar(&cfg.serverName, "server-name", "", "with --stats, name the server `NAME` in the stats lines (default: the name it gives itself when it initializes)")
	fs.IntVar(&cfg.maxMessage, "max-message-bytes", proxy.DefaultMaxMessageBytes, "read messages of up to `N` bytes whole; a longer one passes untouched")
	fs.IntVar(&cfg.maxCalls, "max-calls", proxy.DefaultMaxCalls, "follow up to `N` tools/call requests in flight per session; a call beyond is refused")
	fs.Int64Var(&cfg.maxBuffer, "max-buffered-bytes", proxy.DefaultMaxBufferedBytes, "hold at most `N` bytes of messages at once to rewrite them, shared: a session's results, or one request's body, at most a quarter (or one message), the hosts' bodies together at most half, and an event left unread 5s gives way to a session short of room; a message beyond passes untouched")
	cfg.draft = draftFlag(fs)
	return cfg
}

func (cfg *proxyConfig) options() (proxy.Options, error) {
	opts := proxy.Options{Binding: binding.ServerOptions{Mode: binding.Mode(cfg.mode)}, MaxMessageBytes: cfg.maxMessage, MaxCalls: cfg.maxCalls, MaxBufferedBytes: cfg.maxBuffer, Subreaper: true}
	if cfg.maxMessage <= 0 {
		return opts, fmt.Errorf("--max-message-bytes %d: a message limit is a positive count of bytes", cfg.maxMessage)
	}
	if cfg.maxCalls <= 0 || cfg.maxBuffer <= 0 {
		return opts, fmt.Errorf("--max-calls and --max-buffered-bytes are positive counts")
	}
	if len(cfg.serverName) > proxy.MaxServerNameBytes {
		return opts, fmt.Errorf("--server-name: %d bytes, longer than %d", len(cfg.serverName), proxy.MaxServerNameBytes)
	}
	opts.ServerName = cfg.serverName
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
	return opts, applyDraft(&opts, *cfg.draft)
}
