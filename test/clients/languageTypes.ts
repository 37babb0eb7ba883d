/**
 * The Python and Go clients' record types, generated from the API document's `components.schemas` (as
 * openapi-typescript makes the TypeScript client's): Python TypedDicts (3.9+: required and optional keys as two bases)
 * and Go structs (pointers for nullable and optional scalars, `omitempty` for optional fields). Object types written
 * inline in a record get a name of their own, the record's followed by the field's (`JobError`). The drift test in
 * test/clients/typescript.test.ts compares the checked-in files with what this makes of the live document.
 */

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
};
type Document = { components?: { schemas?: Record<string, Schema> } };

/** A type: a named record, a list, a map, a scalar or anything; `nullable` when null is a value too. */
type Shape =
  | { kind: 'ref'; name: string }
  | { kind: 'list'; of: Shape }
  | { kind: 'map'; of: Shape | undefined }
  | { kind: 'scalar'; type: 'string' | 'integer' | 'number' | 'boolean'; values?: string[]; dateTime?: boolean }
  | { kind: 'any' };
type Field = { name: string; shape: Shape; nullable: boolean; required: boolean; description?: string };
type Record_ = { name: string; description?: string; fields: Field[] };

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The document's records, each after those it names (so neither language needs forward references). */
function recordsOf(document: Document): Record_[] {
  const schemas = document.components?.schemas ?? {};
  const records = new Map<string, Record_>();
  /** The schema each record name was made from. */
  const sources = new Map<string, Schema>();
  const order: Record_[] = [];

  function nullableOf(schema: Schema): { schema: Schema; nullable: boolean } {
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const rest = alternatives.filter((alternative) => alternative.type !== 'null');
      if (rest.length === 1)
        return { schema: { ...rest[0], description: schema.description ?? rest[0]!.description }, nullable: rest.length < alternatives.length };
      return { schema: {}, nullable: rest.length < alternatives.length };
    }
    if (Array.isArray(schema.type)) {
      const types = schema.type.filter((type) => type !== 'null');
      return { schema: { ...schema, type: types.length === 1 ? types[0] : undefined }, nullable: types.length < schema.type.length };
    }
    return { schema, nullable: false };
  }

  function shapeOf(schema: Schema, nameIfRecord: string): Shape {
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      define(name, schemas[name] ?? {});
      return { kind: 'ref', name };
    }
    if (schema.const !== undefined) return typeof schema.const === 'string' ? { kind: 'scalar', type: 'string', values: [schema.const] } : { kind: 'any' };
    switch (schema.type) {
      case 'string':
        // A nullable enum lists null among its values: null is the field's nullability, not a value.
        return { kind: 'scalar', type: 'string', values: schema.enum?.filter((value) => value !== null).map(String), dateTime: schema.format === 'date-time' };
      case 'integer':
      case 'number':
      case 'boolean':
        return { kind: 'scalar', type: schema.type };
      case 'array':
        return { kind: 'list', of: schema.items ? shapeOf(nullableOf(schema.items).schema, `${nameIfRecord}Item`) : { kind: 'any' } };
      case 'object':
        if (schema.properties && Object.keys(schema.properties).length > 0) {
          // An inline record named like another record (one of the document's, or an inline one with the same parent
          // and field names) takes another name: Field, then a number.
          let name = nameIfRecord;
          for (let n = 1; (schemas[name] && schemas[name] !== schema) || (sources.has(name) && sources.get(name) !== schema); n++)
            name = `${nameIfRecord}Field${n === 1 ? '' : n}`;
          define(name, schema);
          return { kind: 'ref', name };
        }
        return {
          kind: 'map',
          of:
            typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length > 0
              ? shapeOf(schema.additionalProperties, `${nameIfRecord}Value`)
              : undefined,
        };
      default:
        return { kind: 'any' };
    }
  }

  function define(name: string, schema: Schema) {
    if (records.has(name)) return;
    sources.set(name, schema);
    const record: Record_ = { name, description: schema.description, fields: [] };
    records.set(name, record);
    const required = new Set(schema.required ?? []);
    for (const [field, raw] of Object.entries(schema.properties ?? {})) {
      const { schema: inner, nullable } = nullableOf(raw);
      record.fields.push({
        name: field,
        shape: shapeOf(inner, `${name}${pascal(field)}`),
        nullable,
        required: required.has(field),
        description: inner.description ?? raw.description,
      });
    }
    order.push(record); // after the records its fields named
  }

  for (const [name, schema] of Object.entries(schemas)) define(name, schema);
  return order;
}

const BANNER = 'Generated from the API document by test/clients/languageTypes.ts (npm run generate:client). Do not edit.';
const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------------------------------------------------------- Python

function pythonType(shape: Shape): string {
  switch (shape.kind) {
    case 'ref':
      return shape.name;
    case 'list':
      return `List[${pythonType(shape.of)}]`;
    case 'map':
      return `Dict[str, ${shape.of ? pythonType(shape.of) : 'Any'}]`;
    case 'any':
      return 'Any';
    case 'scalar':
      if (shape.values) return `Literal[${shape.values.map((value) => JSON.stringify(value)).join(', ')}]`;
      return { string: 'str', integer: 'int', number: 'float', boolean: 'bool' }[shape.type];
  }
}

/** A line of a Python docstring: backslashes doubled, triple quotes made single. */
const pythonDocLine = (line: string): string => line.replace(/\\/g, '\\\\').replace(/"""/g, "'''");

export function generatePythonTypes(document: object): string {
  const lines = [`"""The API's records as TypedDicts. ${BANNER}"""`, '', 'from typing import Any, Dict, List, Literal, Optional, TypedDict', ''];
  const names: string[] = [];
  for (const record of recordsOf(document as Document)) {
    names.push(record.name);
    const entry = (field: Field) => {
      const type = pythonType(field.shape);
      return `        ${JSON.stringify(field.name)}: ${field.nullable ? `Optional[${type}]` : type},`;
    };
    const required = record.fields.filter((field) => field.required);
    const optional = record.fields.filter((field) => !field.required);
    const bases: string[] = [];
    // The functional form: field names may be Python keywords (`from`). Required and optional keys are two bases.
    for (const [part, fields, total] of [
      ['Required', required, true],
      ['Optional', optional, false],
    ] as const) {
      if (fields.length === 0 && (part === 'Optional' || optional.length > 0)) continue;
      const base = `_${record.name}${part}`;
      bases.push(base);
      lines.push(
        '',
        `${base} = TypedDict(`,
        `    ${JSON.stringify(base)},`,
        '    {',
        ...fields.map(entry),
        '    },',
        ...(total ? [] : ['    total=False,']),
        ')',
      );
    }
    const doc = oneLine(record.description) || `The ${record.name} record.`;
    const keyed = record.fields.filter((field) => field.description).map((field) => `    ${field.name}: ${oneLine(field.description)}`);
    lines.push(
      '',
      '',
      `class ${record.name}(${bases.join(', ')}):`,
      // Backslashes doubled (a description may show `\xHH`, which Python would read as an escape), `"""` made `'''`.
      `    """${[doc, ...(keyed.length ? ['', ...keyed] : [])].map(pythonDocLine).join('\n')}"""`,
      '',
    );
  }
  lines.push('', `__all__ = [${names.map((name) => JSON.stringify(name)).join(', ')}]`, '');
  return lines.join('\n').replace(/\n{4,}/g, '\n\n\n');
}

// -------------------------------------------------------------------------------------------------------------------- Go

const INITIALISMS = new Set(['id', 'ids', 'url', 'ip', 'cpu', 'uuid', 'os', 'api', 'json', 'http', 'sha256', 's3']); // not rcon, eula: Go writes them as words (Rcon)

function goName(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      if (INITIALISMS.has(lower)) return lower === 'ids' ? 'IDs' : lower.toUpperCase();
      return pascal(word);
    })
    .join('');
}

function goType(shape: Shape): string {
  switch (shape.kind) {
    case 'ref':
      return shape.name;
    case 'list':
      return `[]${goType(shape.of)}`;
    case 'map':
      return `map[string]${shape.of ? goType(shape.of) : 'any'}`;
    case 'any':
      return 'any';
    case 'scalar':
      return { string: 'string', integer: 'int64', number: 'float64', boolean: 'bool' }[shape.type];
  }
}

export function generateGoTypes(document: object): string {
  const lines = [`// Code generated from the API document by test/clients/languageTypes.ts (npm run generate:client). DO NOT EDIT.`, '', 'package gsm'];
  for (const record of recordsOf(document as Document)) {
    const name = record.name;
    lines.push('', `// ${name}: ${oneLine(record.description) || `the ${name} record.`}`, `type ${name} struct {`);
    // Aligned as gofmt aligns: the names and types of consecutive field lines (a comment line ends a run).
    let run: [string, string, string][] = [];
    const flush = () => {
      const widths = [0, 1].map((column) => Math.max(...run.map((cells) => cells[column]!.length)));
      for (const cells of run) lines.push(`\t${cells[0].padEnd(widths[0]!)} ${cells[1].padEnd(widths[1]!)} ${cells[2]}`);
      run = [];
    };
    for (const field of record.fields) {
      const base = goType(field.shape);
      const nilable = field.shape.kind === 'list' || field.shape.kind === 'map' || field.shape.kind === 'any';
      const type = (field.nullable || !field.required) && !nilable ? `*${base}` : base;
      const notes = [oneLine(field.description), field.shape.kind === 'scalar' && field.shape.values ? `One of ${field.shape.values.join(', ')}.` : '']
        .concat(field.shape.kind === 'scalar' && field.shape.dateTime ? ['RFC 3339 time.'] : [])
        .filter(Boolean);
      if (notes.length > 0) flush();
      for (const note of notes) lines.push(`\t// ${note}`);
      run.push([goName(field.name), type, `\`json:"${field.name}${field.required ? '' : ',omitempty'}"\``]);
    }
    if (run.length > 0) flush();
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}
