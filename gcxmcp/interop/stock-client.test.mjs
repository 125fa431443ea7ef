// The official TypeScript SDK's stock Client, with its own result schemas,
// drives examples/mcpserver over stdio: tools/list, every tool, with and
// without the GCX1 opt-in, by capability and by per-call _meta, in the
// server's three modes, and with a draft of the next version offered.
// Where a result names a tag, its text block must decode (by the gcx
// binary) to exactly structuredContent.
//
// Run by gcxmcp/interop/interop_test.go, or by hand:
//
//	MCPSERVER=/path/to/mcpserver GCX=/path/to/gcx MCPSERVER_ROOT=. node --test gcxmcp/interop/stock-client.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

const server = mustEnv('MCPSERVER');
const gcx = mustEnv('GCX');
const root = mustEnv('MCPSERVER_ROOT');

// The names the binding adds to MCP [MCP-1].
const EXTENSION = 'io.github.gcxwire/gcx';
const ACCEPT = 'io.github.gcxwire/accept';
const FORMAT = 'io.github.gcxwire/format';
const TOTAL = 'io.github.gcxwire/total';
const TRUNCATED = 'io.github.gcxwire/truncated';

// A draft of the next version on trial, which the server writes only with
// -offer and only to a client that accepts it (docs/drafts/GCX2-draft.2.md).
const DRAFT = 'GCX2-draft.2';

// The protocol version this project's results are shaped for: objects
// only. The SDK asks for its latest, which must be this one.
const PROTOCOL = '2025-11-25';

// Calls that find more than their limit in this repository, so that the
// answer is cut and GCX1 is smaller than its JSON in every mode.
const bigCalls = [
	{ name: 'search_symbols', list: 'symbols', arguments: { query: 'Decode', limit: 10 } },
	{ name: 'find_usages', list: 'usages', arguments: { name: 'Errorf', limit: 10 } },
];

// A call with a one-row answer: auto mode may keep it JSON.
const smallCall = { name: 'search_symbols', list: 'symbols', arguments: { query: 'EncodeValue', limit: 1 } };

function mustEnv(name) {
	const v = process.env[name];
	if (!v) {
		throw new Error(`${name} is not set: see the comment at the top of this file`);
	}
	return v;
}

// connect starts the server in a mode and connects a stock Client, with
// the given capabilities. It records every message the client sends and
// receives, to check what went over the wire.
async function connect(mode, capabilities = {}, flags = []) {
	const transport = new StdioClientTransport({
		command: server,
		args: ['-root', root, '-mode', mode, ...flags],
		stderr: 'ignore',
	});
	const wire = { sent: [], received: [] };
	const send = transport.send.bind(transport);
	transport.send = (message, options) => {
		wire.sent.push(message);
		return send(message, options);
	};
	let handler;
	Object.defineProperty(transport, 'onmessage', {
		get: () => handler && ((message, extra) => {
			wire.received.push(message);
			return handler(message, extra);
		}),
		set: (h) => { handler = h; },
	});
	const client = new Client({ name: 'gcx-interop', version: '0' }, { capabilities });
	await sdk('connect', client.connect(transport));
	const init = wire.sent.find((m) => m.method === 'initialize');
	const answer = wire.received.find((m) => m.id === init.id);
	return { client, wire, init, negotiated: answer.result.protocolVersion };
}

// sdk awaits a call of the SDK. What the SDK throws when a result fails
// its schema (a ZodError) reaches the test report with an empty message;
// this error carries the text.
async function sdk(what, promise) {
	try {
		return await promise;
	} catch (e) {
		throw new Error(`${what}: ${String(e)}`);
	}
}

// callTool and listTools are the SDK's, reported readably.
const callTool = (client, params) => sdk(`tools/call ${params.name}`, client.callTool(params));
const listTools = (client) => sdk('tools/list', client.listTools());

// gcxDecode pipes a GCX1 payload through `gcx decode` and returns the JSON
// value it writes; with a tag, a payload of that version, through `gcx
// decode --accept TAG`.
function gcxDecode(payload, tag = undefined) {
	const r = spawnSync(gcx, tag ? ['decode', '--accept', tag] : ['decode'], { input: payload, encoding: 'utf8' });
	assert.equal(r.status, 0, `gcx decode exited ${r.status}: ${r.stderr}`);
	return JSON.parse(r.stdout);
}

// headerPairs returns the name=value pairs of a payload's first line.
function headerPairs(payload) {
	const head = payload.slice(0, payload.indexOf('\n'));
	return Object.fromEntries(head.split(' ').slice(1).map((p) => {
		const at = p.indexOf('=');
		return [p.slice(0, at), p.slice(at + 1)];
	}));
}

// sameValue compares two JSON values: equal as values, and with their
// members in the same order. No member name here looks like an integer,
// so JavaScript keeps the order the server sent [MCP-8].
function sameValue(actual, expected, what) {
	assert.deepStrictEqual(actual, expected, `${what}: not the same value`);
	assert.equal(JSON.stringify(actual), JSON.stringify(expected), `${what}: members in another order`);
}

// checkShape checks what every successful result of these tools holds on
// a 2025-11-25 session: an object {list, total, truncated}, and the same
// counts in _meta [MCP-7].
function checkShape(call, result) {
	assert.ok(!result.isError, `${call.name}: isError: ${JSON.stringify(result.content)}`);
	const sc = result.structuredContent;
	assert.equal(typeof sc, 'object', `${call.name}: structuredContent is ${typeof sc}`);
	assert.ok(sc !== null && !Array.isArray(sc), `${call.name}: structuredContent is not an object`);
	assert.deepEqual(Object.keys(sc), [call.list, 'total', 'truncated'], `${call.name}: members`);
	assert.ok(Array.isArray(sc[call.list]) && sc[call.list].length > 0, `${call.name}: ${call.list} is empty`);
	assert.ok(sc[call.list].length <= call.arguments.limit, `${call.name}: more than limit`);
	assert.equal(sc.truncated, sc.total > sc[call.list].length, `${call.name}: truncated`);
	assert.equal(result._meta?.[TOTAL], sc.total, `${call.name}: _meta total`);
	assert.equal(result._meta?.[TRUNCATED], sc.truncated, `${call.name}: _meta truncated`);
	assert.equal(result.content.length, 1, `${call.name}: content blocks`);
	assert.equal(result.content[0].type, 'text');
}

// checkJSON checks a result the binding left alone: the text block is the
// JSON of structuredContent, and _meta names no format [MCP-5].
function checkJSON(call, result, format = undefined) {
	checkShape(call, result);
	assert.equal(result._meta?.[FORMAT], format, `${call.name}: format`);
	const text = result.content[0].text;
	assert.ok(!text.startsWith('GCX'), `${call.name}: ${text.slice(0, 40)}`);
	sameValue(JSON.parse(text), result.structuredContent, `${call.name}: JSON text against structuredContent`);
}

// checkGCX checks a result in GCX1: its text block decodes to exactly
// structuredContent, and its header's counts are those of _meta [MCP-6]
// [MCP-7] [MCP-8]. A cut list of ten rows is smaller in GCX1; a one-row
// answer need not be (gcx mode writes it all the same).
function checkGCX(call, result) {
	checkShape(call, result);
	assert.equal(result._meta?.[FORMAT], 'GCX1', `${call.name}: format`);
	const text = result.content[0].text;
	assert.ok(text.startsWith('GCX1 '), `${call.name}: ${text.slice(0, 40)}`);
	const pairs = headerPairs(text);
	assert.equal(pairs.tool, call.name);
	assert.equal(pairs.total, String(result._meta[TOTAL]), `${call.name}: header total=`);
	assert.equal(pairs.truncated, String(result._meta[TRUNCATED]), `${call.name}: header truncated=`);
	sameValue(gcxDecode(text), result.structuredContent, `${call.name}: gcx decode against structuredContent`);
	if (call.arguments.limit >= 10) {
		assert.ok(text.length < JSON.stringify(result.structuredContent).length, `${call.name}: GCX1 no smaller than JSON`);
	}
}

// checkTools checks tools/list as the stock schema parsed it.
async function checkTools(client) {
	const { tools } = await listTools(client);
	assert.deepEqual(tools.map((t) => t.name).sort(), ['find_usages', 'search_symbols']);
	for (const tool of tools) {
		assert.equal(tool.inputSchema.type, 'object', `${tool.name}: inputSchema`);
		assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema`);
		assert.deepEqual(tool.outputSchema.required, [tool.name === 'find_usages' ? 'usages' : 'symbols', 'total', 'truncated']);
		assert.match(tool.description, /"total": N, "truncated": B\}/, `${tool.name}: description`);
		assert.equal(tool.annotations?.readOnlyHint, true);
	}
}

test('the SDK negotiates 2025-11-25, and tools/list passes its stock schema', async () => {
	assert.equal(LATEST_PROTOCOL_VERSION, PROTOCOL, 'this SDK asks for another version: revisit these tests');
	const { client, init, negotiated } = await connect('auto');
	try {
		assert.equal(init.params.protocolVersion, PROTOCOL);
		assert.equal(negotiated, PROTOCOL);
		assert.deepEqual(client.getServerCapabilities().extensions?.[EXTENSION], { offer: ['GCX1'] });
		await checkTools(client);
	} finally {
		await client.close();
	}
});

test('without opt-in every tool answers JSON', async () => {
	const { client } = await connect('auto');
	try {
		// Before tools/list the SDK checks the result's shape only; after
		// it, structuredContent against the tool's outputSchema too.
		checkJSON(bigCalls[0], await callTool(client, { name: bigCalls[0].name, arguments: bigCalls[0].arguments }));
		await listTools(client);
		for (const call of [...bigCalls, smallCall]) {
			checkJSON(call, await callTool(client, { name: call.name, arguments: call.arguments }));
		}
	} finally {
		await client.close();
	}
});

test('opt-in by capability in initialize', async () => {
	const caps = { extensions: { [EXTENSION]: { accept: ['GCX1'] } } };
	const { client, init } = await connect('auto', caps);
	try {
		assert.deepEqual(init.params.capabilities.extensions, caps.extensions, 'the SDK dropped the extension');
		await listTools(client);
		for (const call of bigCalls) {
			checkGCX(call, await callTool(client, { name: call.name, arguments: call.arguments }));
			// The per-call key overrides the capability: [] asks for JSON [MCP-3].
			checkJSON(call, await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: [] } }));
		}
		const small = await callTool(client, { name: smallCall.name, arguments: smallCall.arguments });
		if (small._meta?.[FORMAT] === 'GCX1') {
			checkGCX(smallCall, small);
		} else {
			checkJSON(smallCall, small, 'json'); // auto mode found GCX1 no cheaper [AUTO-1]
		}
	} finally {
		await client.close();
	}
});

test('opt-in by per-call _meta', async () => {
	const { client, wire } = await connect('auto');
	try {
		await listTools(client);
		for (const call of bigCalls) {
			checkGCX(call, await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: ['GCX1'] } }));
			const sent = wire.sent.findLast((m) => m.method === 'tools/call');
			assert.deepEqual(sent.params._meta, { [ACCEPT]: ['GCX1'] }, 'the SDK dropped the per-call _meta');
			checkJSON(call, await callTool(client, { name: call.name, arguments: call.arguments }));
		}
	} finally {
		await client.close();
	}
});

test('mode gcx answers GCX1 to every opted-in call, a one-row answer too', async () => {
	const { client } = await connect('gcx');
	try {
		await checkTools(client);
		for (const call of [...bigCalls, smallCall]) {
			checkGCX(call, await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: ['GCX1'] } }));
		}
	} finally {
		await client.close();
	}
});

test('mode off offers nothing and answers JSON to a client that opts in', async () => {
	const caps = { extensions: { [EXTENSION]: { accept: ['GCX1'] } } };
	const { client } = await connect('off', caps);
	try {
		assert.equal(client.getServerCapabilities().extensions?.[EXTENSION], undefined, 'mode off offers GCX1 [MCP-2]');
		await checkTools(client);
		for (const call of bigCalls) {
			checkJSON(call, await callTool(client, { name: call.name, arguments: call.arguments }));
			checkJSON(call, await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: ['GCX1'] } }));
		}
	} finally {
		await client.close();
	}
});

test('a tool error stays as the tool wrote it, opted in or not', async () => {
	const { client } = await connect('gcx');
	try {
		await listTools(client);
		for (const meta of [undefined, { [ACCEPT]: ['GCX1'] }]) {
			const r = await callTool(client, { name: 'search_symbols', arguments: { query: '' }, _meta: meta });
			assert.equal(r.isError, true);
			assert.equal(r.content[0].text, 'query is empty');
			assert.equal(r._meta?.[FORMAT], undefined);
		}
	} finally {
		await client.close();
	}
});

test('a server that offers GCX2-draft.2 writes it to a client that accepts it, and GCX1 to one that does not', async () => {
	const { client } = await connect('gcx', {}, ['-offer', `${DRAFT},GCX1`]);
	try {
		assert.deepEqual(client.getServerCapabilities().extensions?.[EXTENSION], { offer: [DRAFT, 'GCX1'] });
		await checkTools(client);
		for (const call of bigCalls) {
			const r = await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: [DRAFT, 'GCX1'] } });
			checkShape(call, r);
			assert.equal(r._meta?.[FORMAT], DRAFT, `${call.name}: format`);
			const text = r.content[0].text;
			assert.ok(text.startsWith(`${DRAFT} tool=${call.name} `), `${call.name}: ${text.slice(0, 60)}`);
			// The wrapped list under the tool's layout: no json=, the list's
			// member marked @, the other members as pairs [D2-LAY-2].
			const pairs = headerPairs(text);
			assert.equal(pairs.json, undefined, `${call.name}: json= in ${text.slice(0, 120)}`);
			assert.equal(pairs[call.list], '@', `${call.name}: ${call.list}=`);
			assert.equal(pairs.total, String(r.structuredContent.total), `${call.name}: the member total`);
			sameValue(gcxDecode(text, DRAFT), r.structuredContent, `${call.name}: gcx decode --accept ${DRAFT} against structuredContent`);
			checkGCX(call, await callTool(client, { name: call.name, arguments: call.arguments, _meta: { [ACCEPT]: ['GCX1'] } }));
		}
	} finally {
		await client.close();
	}
});
