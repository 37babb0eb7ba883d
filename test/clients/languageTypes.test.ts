/**
 * The Python and Go type generator on shapes the API document may come to have: a nullable enum, inline records whose
 * names would collide, a field named like a Python keyword, nullable and optional fields. The Python output is run by
 * python3 (3.9-compatible syntax) and keeps required and optional keys apart.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { generateGoTypes, generatePythonTypes } from './languageTypes.ts';

const document = {
  components: {
    schemas: {
      A: {
        type: 'object',
        properties: { bC: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, from: { type: 'integer' } },
        required: ['bC'],
      },
      AB: { type: 'object', properties: { c: { type: 'object', properties: { y: { type: 'boolean' } }, required: ['y'] } }, required: ['c'] },
      Mode: {
        type: 'object',
        properties: {
          mode: { type: ['string', 'null'], enum: ['ON', 'OFF', null] },
          list: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
        },
        required: ['mode', 'list'],
      },
    },
  },
};

const python = (code: string) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('python3', ['-c', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (exit) => resolve({ code: exit, output }));
  });

test('inline records whose names collide get names of their own; a nullable enum has no "null" value', (t) => {
  const go = generateGoTypes(document);
  // A.bC and AB.c would both be "ABC": the second takes another name and keeps its own shape.
  t.regex(go, /type ABC struct \{\n\tX string `json:"x"`\n\}/);
  t.regex(go, /type ABCField struct \{\n\tY bool `json:"y"`\n\}/);
  t.regex(go, /C +ABCField +`json:"c"`/);
  t.regex(go, /\/\/ One of ON, OFF\.\n\tMode +\*string +`json:"mode"`/);
  t.regex(go, /List +\[\]string +`json:"list"`/);
  t.regex(go, /From +\*int64 +`json:"from,omitempty"`/);
});

test('the Python types run, keep required and optional keys apart, and accept a keyword as a key', async (t) => {
  const source = generatePythonTypes(document);
  t.regex(source, /"mode": Optional\[Literal\["ON", "OFF"\]\]/);
  const { code, output } = await python(
    `${source}\nprint(sorted(A.__required_keys__), sorted(A.__optional_keys__), sorted(AB.__annotations__), ABCField.__annotations__['y'].__name__)`,
  );
  t.is(code, 0, output);
  t.is(output.trim(), "['bC'] ['from'] ['c'] bool");
});
