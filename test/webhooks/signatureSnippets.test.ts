/**
 * The signature-checking snippets of docs/webhooks.md, run as a receiver would: the Python one in python3 and the
 * Node.js one in Node, each given a signature made by the service's own signing. The Python snippet must also run on
 * Python 3.9, the oldest the Python client supports: no `X | Y` unions in annotations (evaluated at definition time,
 * they need 3.10).
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signature } from '../../orchestrator/webhooks/send.ts';

const page = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
const snippet = (language: string) => {
  const found = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(page)?.[1];
  if (!found) throw new Error(`docs/webhooks.md has no ${language} snippet`);
  return found;
};

const SECRET = 'whsec_snippet-check';
const BODY = JSON.stringify({ id: 'test_0193b5e2-0000-7000-8000-000000000000', type: 'webhook.test', clusterId: 'c', at: new Date().toISOString(), data: {} });

function run(command: string, args: string[], input: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

/**
 * Headers a sender could forge that are no signature: a timestamp of a superscript digit ('²'.isdigit() is true, int('²')
 * raises) or other non-ASCII digits, one too long for int() (Python 3.11+ refuses more than 4300 digits), a non-ASCII v1 of
 * the right length (Node's timingSafeEqual throws on buffers of different lengths). Each must give false, not an exception.
 */
const ODD_HEADERS = (now: number, v1: string) => [
  `t=\u00b2,v1=${v1}`,
  `t=${now}\u00b2,v1=${v1}`,
  `t=\u0663\u0664,v1=${v1}`,
  `t=${'9'.repeat(5000)},v1=${v1}`,
  `t=${now},v1=${'\u00e9'.repeat(v1.length)}`,
  `t=${now},v1`,
  't',
  '',
];

/** Reads the snippet on stdin, lists annotations that need Python 3.10, then runs verify() on a good and some bad signatures. */
const PYTHON_CHECK = `
import ast, json, sys
source = sys.stdin.read()
newer = []
for node in ast.walk(ast.parse(source)):
    annotations = []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        annotations = [a.annotation for a in node.args.args + node.args.kwonlyargs if a.annotation] + ([node.returns] if node.returns else [])
    elif isinstance(node, ast.AnnAssign):
        annotations = [node.annotation]
    for annotation in annotations:
        if any(isinstance(part, ast.BinOp) and isinstance(part.op, ast.BitOr) for part in ast.walk(annotation)):
            newer.append(ast.unparse(annotation))
scope = {}
exec(source, scope)
good, body, secret = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
print(json.dumps({
    "newer": newer,
    "good": scope["verify"](secret, good, body),
    "tampered": scope["verify"](secret, good, body + b" "),
    "missing": scope["verify"](secret, None, body),
    "odd": [scope["verify"](secret, odd, body) for odd in json.loads(sys.argv[4])],
}))
`;

test('the Python snippet runs on Python 3.9 and accepts the service’s signature, and only it', async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const header = signature(SECRET, BODY, now);
  const odd = ODD_HEADERS(now, /v1=([0-9a-f]+)/.exec(header)![1]!);
  const { code, output } = await run('python3', ['-c', PYTHON_CHECK, header, BODY, SECRET, JSON.stringify(odd)], snippet('python'));
  t.is(code, 0, output);
  t.deepEqual(JSON.parse(output), { newer: [], good: true, tampered: false, missing: false, odd: odd.map(() => false) });
});

test('the Node.js snippet accepts the service’s signature, and only it', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'gsm-snippet-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const file = join(folder, 'verify.mjs');
  await writeFile(file, snippet('js'));
  const { verify } = (await import(file)) as { verify: (secret: string, header: unknown, raw: string) => boolean };
  const header = signature(SECRET, BODY, Math.floor(Date.now() / 1000));
  t.true(verify(SECRET, header, BODY));
  t.false(verify(SECRET, header, `${BODY} `));
  t.false(verify(SECRET, undefined, BODY));
  t.false(verify(SECRET, signature(SECRET, BODY, Math.floor(Date.now() / 1000) - 3600), BODY), 'an old timestamp is refused');
  const now = Math.floor(Date.now() / 1000);
  for (const odd of ODD_HEADERS(now, /v1=([0-9a-f]+)/.exec(header)![1]!)) t.false(verify(SECRET, odd, BODY), JSON.stringify(odd.slice(0, 80)));
});
