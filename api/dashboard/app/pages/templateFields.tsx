/**
 * Templates in forms (docs/dashboard.md): picking one from the catalogue with a search, and a template's variables as
 * fields, each with its description and validation in words. Values are sent as text, as the API takes them; a secret
 * left empty keeps its stored value.
 */
import { useState } from 'preact/hooks';
import { Field, Select, useFieldError } from '../ui.tsx';

export type TemplateVariable = {
  name: string;
  label?: string;
  description?: string;
  default: string;
  validation: {
    type: 'string' | 'integer' | 'number' | 'boolean';
    required?: boolean;
    enum?: string[];
    min?: number;
    max?: number;
    minLength?: number;
    maxLength?: number;
    regex?: string;
  };
  userViewable: boolean;
  userEditable: boolean;
  secret: boolean;
};

/** What `GET /api/v1/templates` lists of each (its document, with the variables, is read when one is chosen). */
export type TemplateSummary = {
  id: string;
  clusterId: string | null;
  name: string;
  description: string | null;
  version: number;
  gameType: string;
  tags: string[];
  platforms: string[];
};

/** A variable's rules in words: `a whole number from 1 to 100; required`. */
export function describeValidation(validation: TemplateVariable['validation']): string {
  const words: string[] = [];
  const range = (low: number | undefined, high: number | undefined, unit: string) =>
    low !== undefined && high !== undefined
      ? `${low} to ${high}${unit}`
      : low !== undefined
        ? `at least ${low}${unit}`
        : high !== undefined
          ? `at most ${high}${unit}`
          : '';
  if (validation.enum) words.push(`one of ${validation.enum.join(', ')}`);
  else if (validation.type === 'boolean') words.push('true or false');
  else if (validation.type === 'integer' || validation.type === 'number') {
    const bounds = range(validation.min, validation.max, '');
    words.push(`${validation.type === 'integer' ? 'a whole number' : 'a number'}${bounds ? ` from ${bounds.replace(/^at /, '')}` : ''}`);
  } else {
    const length = range(validation.minLength, validation.maxLength, ' characters');
    if (length) words.push(length);
    if (validation.regex) words.push(`matching ${validation.regex}`);
  }
  if (validation.required) words.push('required');
  return words.join('; ');
}

/** The fields of a template's variables (those the caller may change), named `var:<NAME>`. */
export function VariableFields({
  variables,
  values = {},
  secretsSet = [],
  editable = () => true,
}: {
  variables: TemplateVariable[];
  /** The server's current values (a new server: the defaults). */
  values?: Record<string, string>;
  /** Secret variables that have a value (never shown). */
  secretsSet?: string[];
  editable?: (variable: TemplateVariable) => boolean;
}) {
  const error = useFieldError('variables');
  const shown = variables.filter(editable);
  if (shown.length === 0) return null;
  return (
    <fieldset class="form grid">
      <legend>Settings</legend>
      {shown.map((variable) => {
        const label = variable.label ?? variable.name;
        const rules = describeValidation(variable.validation);
        const hint = [variable.description, rules && `(${rules})`].filter(Boolean).join(' ');
        const name = `var:${variable.name}`;
        const current = values[variable.name] ?? variable.default;
        if (variable.validation.enum || variable.validation.type === 'boolean')
          return (
            <div key={variable.name}>
              <Select name={name} label={label} options={variable.validation.enum ?? ['true', 'false']} initial={current} />
              {hint && <small class="muted">{hint}</small>}
            </div>
          );
        if (variable.secret)
          return (
            <Field
              key={variable.name}
              name={name}
              label={label}
              type="password"
              autocomplete="new-password"
              hint={`${hint}${secretsSet.includes(variable.name) ? ' Set: leave empty to keep it.' : ''}`}
              maxLength={variable.validation.maxLength}
            />
          );
        const numeric = variable.validation.type === 'integer' || variable.validation.type === 'number';
        return (
          <Field
            key={variable.name}
            name={name}
            label={label}
            type={numeric ? 'number' : 'text'}
            defaultValue={current}
            hint={hint}
            required={variable.validation.required}
            min={numeric ? variable.validation.min : undefined}
            max={numeric ? variable.validation.max : undefined}
            minLength={numeric ? undefined : variable.validation.minLength}
            maxLength={numeric ? undefined : variable.validation.maxLength}
          />
        );
      })}
      {error && <small class="field-error">{error}</small>}
    </fieldset>
  );
}

/**
 * The `variables` of a request from a form's values: every `var:<NAME>` field, except a secret left empty (kept) and,
 * with `changedOnly`, values equal to `current`.
 */
export function variablesFrom(values: Record<string, string>, variables: TemplateVariable[], current?: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const variable of variables) {
    const value = values[`var:${variable.name}`];
    if (value === undefined) continue;
    if (variable.secret && value === '') continue;
    if (current && !variable.secret && (current[variable.name] ?? variable.default) === value) continue;
    out[variable.name] = value;
  }
  return out;
}

/** A search over templates by name, id and tag, and the list to pick one from. */
export function TemplatePicker({ templates, chosen, onChoose }: { templates: TemplateSummary[]; chosen: string | null; onChoose: (id: string) => void }) {
  const [search, setSearch] = useState('');
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = templates.filter((template) => {
    const text = `${template.name} ${template.id} ${template.tags.join(' ')}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  return (
    <div class="template-picker">
      <label class="field">
        <span>Search the catalogue</span>
        <input type="search" placeholder="Name or tag: minecraft, survival, steam…" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </label>
      <ul class="template-list" aria-label="Game templates">
        {matching.map((template) => {
          const linux = template.platforms.includes('linux');
          return (
            <li key={template.id}>
              <button
                type="button"
                disabled={!linux}
                aria-pressed={chosen === template.id}
                class={chosen === template.id ? 'chosen' : undefined}
                onClick={() => onChoose(template.id)}
              >
                <strong>{template.name}</strong> <small class="muted">{template.clusterId ? 'cluster template' : template.tags.slice(0, 3).join(', ')}</small>
                {!linux && <small class="muted"> Windows-only server: not offered on Linux machines</small>}
              </button>
            </li>
          );
        })}
        {matching.length === 0 && <li class="muted">No game matches.</li>}
      </ul>
    </div>
  );
}
