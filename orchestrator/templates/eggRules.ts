/**
 * An egg variable's Laravel validation rules (`required|string|max:20|in:a,b|regex:/…/|numeric|between:1,100|boolean`)
 * as a template variable's validation (docs/templates.md#importing-eggs). What has no equivalent (`exists:…`, `url`,
 * a PCRE pattern JavaScript cannot run in linear time) is named in `unmapped`, never dropped in silence.
 */
import { linearPatternProblem } from '../../schema/linearRegExp.ts';

export type MappedRules = {
  type: 'string' | 'integer' | 'number' | 'boolean';
  required: boolean;
  enum?: string[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** The rules not mapped, each with why, in words. */
  unmapped: string[];
};

const number = (text: string | undefined) => (text !== undefined && /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : undefined);

/** Laravel's character classes, as ASCII patterns (Laravel's own accept any Unicode letter: said in `unmapped`). */
const CLASSES: Record<string, string> = {
  alpha: '^[A-Za-z]*$',
  alpha_num: '^[A-Za-z0-9]*$',
  alpha_dash: '^[A-Za-z0-9_-]*$',
};

/**
 * A pattern that matches letters in either case, without the `i` flag (which the linear-time engine does not take):
 * `a` becomes `[aA]`, and a class `[a-f]` also takes `A-F`. Escapes (`\\w`, `\\x41`, `\\p{L}`) are kept as written.
 */
export function caseless(pattern: string): string {
  let out = '';
  let inClass = false;
  let added = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === '\\') {
      // An escape and what it takes: `\\x41`, `\\u{…}`, `\\p{…}` and `\\k<…>` keep their arguments.
      const escape = /^\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|[pPk][{<][^}>]*[}>]|c[A-Za-z]|.)/s.exec(pattern.slice(index));
      // A lone backslash at the end: kept, so that the pattern fails to compile and the rule is reported unmapped.
      const rest = escape ? escape[0] : character;
      out += rest;
      index += rest.length - 1;
      continue;
    }
    if (inClass) {
      if (character === ']') {
        out += `${added}]`;
        inClass = false;
        added = '';
        continue;
      }
      out += character;
      const range = /^([A-Za-z])-([A-Za-z])/.exec(pattern.slice(index));
      if (range) {
        const swap = (letter: string) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase());
        added += `${swap(range[1]!)}-${swap(range[2]!)}`;
        out += pattern.slice(index + 1, index + 3);
        index += 2;
      } else if (/[A-Za-z]/.test(character)) added += character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
      continue;
    }
    if (character === '[') {
      inClass = true;
      out += character;
      if (pattern[index + 1] === '^') {
        out += '^';
        index += 1;
      }
      continue;
    }
    // `(?<name>`, `(?:` and `{2,3}` hold letters that are not literals.
    const group = /^\(\?(?:<[A-Za-z0-9_]+>|[:=!]|<[=!])/.exec(pattern.slice(index));
    if (group) {
      out += group[0];
      index += group[0].length - 1;
      continue;
    }
    out += /[A-Za-z]/.test(character) ? `[${character.toLowerCase()}${character.toUpperCase()}]` : character;
  }
  return out;
}

/**
 * A PCRE pattern as Laravel writes it (`/…/flags`, or other delimiters) as a JavaScript one for the linear engine;
 * a string saying why not otherwise.
 */
export function pcreToJs(rule: string): { pattern: string } | { problem: string } {
  const delimiter = rule[0];
  if (!delimiter || /[A-Za-z0-9\\\s]/.test(delimiter)) return { problem: 'has no delimiters' };
  const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[delimiter] ?? delimiter;
  const end = rule.lastIndexOf(close);
  if (end <= 0) return { problem: 'has no closing delimiter' };
  let pattern = rule.slice(1, end);
  const flags = rule.slice(end + 1);
  if (/[^imsxuUD]/.test(flags)) return { problem: `has flags JavaScript does not know (${flags})` };
  if (flags.includes('x')) return { problem: 'uses the extended (x) flag' };
  // PCRE's anchors for the subject's very start and end.
  pattern = pattern.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$');
  if (flags.includes('i')) pattern = caseless(pattern);
  const problem = linearPatternProblem(pattern);
  if (problem) return { problem };
  return { pattern };
}

export function mapRules(rules: string[]): MappedRules {
  const unmapped: string[] = [];
  const names = rules.map((rule) => rule.split(':')[0]!.toLowerCase());
  const type: MappedRules['type'] = names.some((name) => name === 'boolean' || name === 'bool')
    ? 'boolean'
    : names.some((name) => name === 'integer' || name === 'int')
      ? 'integer'
      : names.includes('numeric')
        ? 'number'
        : 'string';
  const numeric = type === 'integer' || type === 'number';
  const mapped: MappedRules = { type, required: names.includes('required'), unmapped };
  const bound = (which: 'min' | 'max', value: number | undefined, rule: string) => {
    if (value === undefined) return unmapped.push(`${rule}: its bound is not a number`);
    if (numeric) mapped[which] = value;
    else if (type === 'string') mapped[which === 'min' ? 'minLength' : 'maxLength'] = value;
    else unmapped.push(`${rule}: a bound on a ${type}`);
  };
  for (const rule of rules) {
    const colon = rule.indexOf(':');
    const name = (colon === -1 ? rule : rule.slice(0, colon)).toLowerCase();
    const argument = colon === -1 ? '' : rule.slice(colon + 1);
    const list = argument.split(',').map((entry) => entry.trim());
    switch (name) {
      case 'required':
      case 'nullable':
      case 'sometimes':
      case 'present':
      case 'filled':
      case 'string':
      case 'numeric':
      case 'integer':
      case 'int':
      case 'boolean':
      case 'bool':
        break;
      case 'in':
        mapped.enum = list.map((entry) => entry.replace(/^"(.*)"$/, '$1'));
        break;
      case 'min':
        bound('min', number(argument), rule);
        break;
      case 'max':
        bound('max', number(argument), rule);
        break;
      case 'between':
        bound('min', number(list[0]), rule);
        bound('max', number(list[1]), rule);
        break;
      case 'size':
        bound('min', number(argument), rule);
        bound('max', number(argument), rule);
        break;
      case 'gte':
        if (numeric && number(argument) !== undefined) mapped.min = number(argument);
        else unmapped.push(`${rule}: compares with another field`);
        break;
      case 'lte':
        if (numeric && number(argument) !== undefined) mapped.max = number(argument);
        else unmapped.push(`${rule}: compares with another field`);
        break;
      case 'digits':
      case 'digits_between': {
        const [low, high] = name === 'digits' ? [number(argument), number(argument)] : [number(list[0]), number(list[1])];
        if (low === undefined || high === undefined || high > 16) unmapped.push(`${rule}: not kept (at most 16 digits can be checked)`);
        else if (mapped.pattern) unmapped.push(`${rule}: not kept beside another pattern`);
        else mapped.pattern = `^\\d{${low},${high}}$`;
        break;
      }
      case 'alpha':
      case 'alpha_num':
      case 'alpha_dash':
        if (mapped.pattern) unmapped.push(`${rule}: not kept beside another pattern`);
        else {
          mapped.pattern = CLASSES[name]!;
          unmapped.push(`${rule}: checked for ASCII letters and digits only (Laravel also accepts other alphabets)`);
        }
        break;
      case 'regex': {
        const converted = pcreToJs(argument);
        if ('problem' in converted) unmapped.push(`${rule}: the pattern ${converted.problem}; not checked`);
        else if (mapped.pattern) unmapped.push(`${rule}: not kept beside another pattern`);
        else mapped.pattern = converted.pattern;
        break;
      }
      default:
        unmapped.push(`${rule}: no such check here (not checked)`);
    }
  }
  return mapped;
}
