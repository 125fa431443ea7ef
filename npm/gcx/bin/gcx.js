#!/usr/bin/env node
// The gcx command for npm users. The binary itself comes in a package of
// its own per platform (@gcxwire/gcx-linux-x64, ...), an optional
// dependency of this one that npm installs only where its os and cpu fields
// match; nothing is downloaded at install or run time. This script finds
// that binary and runs it as if it had been started directly: same
// arguments, same standard streams, same exit status, and a signal sent to
// this process reaches gcx (gcx proxy then stops the server it runs).
"use strict";

const { spawn } = require("node:child_process");
const { constants } = require("node:os");

const platformPackage = `@gcxwire/gcx-${process.platform}-${process.arch}`;
const binaryFile = process.platform === "win32" ? "gcx.exe" : "gcx";

// Exit status when the binary cannot be found or started: a shell's
// "command not found", distinct from every status gcx itself returns.
const cannotRun = 127;

let binary;
try {
  binary = require.resolve(`${platformPackage}/bin/${binaryFile}`);
} catch {
  process.stderr.write(
    `gcx: ${platformPackage} is not installed, so there is no gcx binary for ${process.platform}-${process.arch}.\n` +
      `It is an optional dependency of @gcxwire/gcx: reinstall without --omit=optional (or --no-optional).\n` +
      `Without npm: download gcx from the release page, or go install github.com/gcxwire/gcx/cmd/gcx@latest.\n`,
  );
  process.exit(cannotRun);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });

// Signals this process receives go on to gcx, and this process waits for
// gcx to end. On Windows a console's Ctrl+C already reaches every process
// attached to it, so the launcher only keeps itself alive until gcx ends.
const forwarded = process.platform === "win32" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const handlers = new Map();
for (const signal of forwarded) {
  const handler = () => {
    if (process.platform !== "win32" && child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  };
  handlers.set(signal, handler);
  process.on(signal, handler);
}

child.on("error", (err) => {
  process.stderr.write(`gcx: cannot run ${binary}: ${err.message}\n`);
  process.exit(cannotRun);
});

child.on("exit", (code, signal) => {
  for (const [name, handler] of handlers) {
    process.removeListener(name, handler);
  }
  if (signal !== null) {
    // gcx died of a signal: die of the same one, so that whoever started
    // this process sees what it would have seen starting gcx itself.
    process.kill(process.pid, signal);
    // Reached only for a signal Node does not die of: report it as a shell does.
    process.exit(128 + (constants.signals[signal] ?? 0));
  }
  process.exit(code);
});
