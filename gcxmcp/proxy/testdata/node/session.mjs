// session.mjs drives one MCP session with the official TypeScript SDK's
// client, with its stock schemas and no opt-in to the GCX binding, and
// prints what the client saw as one JSON object on stdout. The Go tests of
// gcx proxy run it once against a server directly and once through the
// proxy, and compare the two.
//
//   node session.mjs SCRIPT.json
//
// SCRIPT: {"stdio": {"command": "...", "args": [...], "env": {...}}
//          or "http": "http://127.0.0.1:PORT/mcp",
//          "calls": [{"name": "...", "arguments": {...}}, ...],
//          "repeat": N}   (N more rounds of the calls, timed, not reported)
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));
const transport = script.http
  ? new StreamableHTTPClientTransport(new URL(script.http))
  : new StdioClientTransport({
      command: script.stdio.command,
      args: script.stdio.args ?? [],
      env: { ...process.env, ...(script.stdio.env ?? {}) },
      stderr: "inherit",
    });
const client = new Client({ name: "gcx-proxy-test", version: "1.0.0" });
await client.connect(transport);

const report = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  instructions: client.getInstructions() ?? null,
  tools: (await client.listTools()).tools,
  calls: [],
};

async function call(c) {
  try {
    return { result: await client.callTool({ name: c.name, arguments: c.arguments ?? {} }) };
  } catch (e) {
    return { error: { code: e.code ?? null, message: String(e.message) } };
  }
}

for (const c of script.calls) {
  report.calls.push({ name: c.name, arguments: c.arguments ?? {}, ...(await call(c)) });
}
// Timing rounds: the calls again, one at a time, then tools/list and ping;
// the report gives the mean per call in microseconds.
if (script.repeat) {
  const perCall = {};
  for (const c of script.calls) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < script.repeat; i++) await call(c);
    perCall[c.name] = Number(process.hrtime.bigint() - t0) / 1000 / script.repeat;
  }
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < script.repeat; i++) await client.listTools();
  const toolsList = Number(process.hrtime.bigint() - t0) / 1000 / script.repeat;
  t0 = process.hrtime.bigint();
  for (let i = 0; i < script.repeat; i++) await client.ping();
  const ping = Number(process.hrtime.bigint() - t0) / 1000 / script.repeat;
  report.timing = { toolsCall: perCall, toolsList, ping };
}
await client.close();
process.stdout.write(JSON.stringify(report) + "\n");
