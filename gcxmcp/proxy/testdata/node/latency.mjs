// latency.mjs measures, side by side in one process, the time a message
// takes on two sessions of the official TypeScript SDK's client: one to a
// server directly and one to the same server through gcx proxy. It
// alternates single calls between the two, so that the machine's load
// falls on both alike, and prints the median and the 90th percentile of
// each, in microseconds, as one JSON object.
//
//   node latency.mjs SCRIPT.json
//
// SCRIPT: {"direct": {"command", "args", "env"}, "proxied": {...},
//          "setup": [calls made once on each], "calls": [calls timed],
//          "rounds": N}
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));

async function connect(s) {
  const client = new Client({ name: "gcx-proxy-latency", version: "1.0.0" });
  await client.connect(new StdioClientTransport({
    command: s.command, args: s.args ?? [], env: { ...process.env, ...(s.env ?? {}) }, stderr: "inherit",
  }));
  for (const c of script.setup ?? []) await client.callTool({ name: c.name, arguments: c.arguments ?? {} });
  return client;
}

const sides = { direct: await connect(script.direct), proxied: await connect(script.proxied) };
const messages = [
  ["ping", (c) => c.ping()],
  ["tools/list", (c) => c.listTools()],
  ...script.calls.map((call) => [`tools/call ${call.label ?? call.name}`, (c) => c.callTool({ name: call.name, arguments: call.arguments ?? {} })]),
];
const samples = {};
for (const [name] of messages) samples[name] = { direct: [], proxied: [] };
for (let i = 0; i < script.rounds; i++) {
  for (const [name, send] of messages) {
    // Alternate which side goes first, so that neither is always warm.
    const order = i % 2 ? ["direct", "proxied"] : ["proxied", "direct"];
    for (const side of order) {
      const t0 = process.hrtime.bigint();
      await send(sides[side]);
      samples[name][side].push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  }
}
const pick = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const out = {};
for (const [name] of messages) {
  out[name] = {};
  for (const side of ["direct", "proxied"]) out[name][side] = { median: pick(samples[name][side], 0.5), p90: pick(samples[name][side], 0.9) };
}
await sides.direct.close();
await sides.proxied.close();
process.stdout.write(JSON.stringify(out) + "\n");
