/**
 * The dashboard's small building blocks: loading data, forms that show the API's messages where they belong (a 400's
 * `details` beside their fields, anything else above the button), tables, status badges, charts, formatting, and what
 * each role may do (the same table as docs/access.md: what a role may not do is not offered).
 */
import type { ComponentChildren, TargetedInputEvent, TargetedSubmitEvent } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from './session.ts';

export type Role = 'OWNER' | 'ADMIN' | 'MODERATOR' | 'VIEWER';

const RANK: Record<Role, number> = { OWNER: 4, ADMIN: 3, MODERATOR: 2, VIEWER: 1 };
/** The least role that may do each thing (docs/access.md). */
const LEAST: Record<string, Role> = {
  manage: 'ADMIN', // servers, power, console commands, machines, tasks, webhooks, members, audit log, cluster settings
  moderate: 'MODERATOR', // kick, ban, unban, flags, notes
  deleteCluster: 'OWNER',
};
export const can = (role: Role | undefined, action: keyof typeof LEAST) => role !== undefined && RANK[role] >= RANK[LEAST[action]!];

// ------------------------------------------------------------------------------------------------------------ data

export type Loaded<T> = {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
  /**
   * A live change. While a load is on its way it is applied again to that load's answer, which may be older than the
   * change; pass `replay = false` for a change that is a step (a count + 1), which that answer may already include.
   */
  setData: (update: (data: T) => T, replay?: boolean) => void;
};

/**
 * Loads `load()` when `key` changes; `reload()` loads again in place (the old data stays shown meanwhile). Data loaded
 * for another key is never shown, not even for the frame between a change (a period, a page) and the new load starting.
 */
export function useLoad<T>(load: () => Promise<T>, key: unknown[]): Loaded<T> {
  type State = { data: T | undefined; error: string | null; loading: boolean; of: object | undefined };
  const [state, setState] = useState<State>({ data: undefined, error: null, loading: true, of: undefined });
  const generation = useRef(0);
  // Live changes made (setData) while a load is on its way: applied again to its answer, which may be older than they are.
  const since = useRef<((data: T) => T)[] | null>(null);
  const of = useMemo(() => ({}), key); // this key's identity: state loaded for another one is not this key's
  const run = useCallback(() => {
    const mine = ++generation.current;
    since.current = [];
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => {
        if (mine !== generation.current) return;
        const updated = (since.current ?? []).reduce((current, update) => update(current), data);
        since.current = null;
        setState({ data: updated, error: null, loading: false, of });
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        since.current = null;
        setState((previous) => ({ data: previous.of === of ? previous.data : undefined, error: messageOf(error), loading: false, of }));
      },
    );
  }, [of]);
  useEffect(run, [run]);
  const setData = useCallback((update: (data: T) => T, replay = true) => {
    if (replay) since.current?.push(update);
    setState((previous) => (previous.data === undefined ? previous : { ...previous, data: update(previous.data) }));
  }, []);
  const current = state.of === of ? state : { data: undefined, error: null, loading: true };
  return { data: current.data, error: current.error, loading: current.loading, reload: run, setData };
}

/** Shows a loading line, the error, or the children with the data. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.data === undefined) return loaded.error ? <Notice kind="error">{loaded.error}</Notice> : <p class="muted">Loading…</p>;
  return (
    <>
      {loaded.error && <Notice kind="error">{loaded.error}</Notice>}
      {children(loaded.data)}
    </>
  );
}

export function Notice({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

// ----------------------------------------------------------------------------------------------------------- forms

const FieldErrors = createContext<Record<string, string>>({});

/**
 * A form: `onSubmit` gets the fields' values; while it runs the button is busy; an ApiError's field details are shown
 * beside those fields, its message above the button. Answers true from onSubmit reset the form.
 */
export function Form({
  onSubmit,
  submit,
  children,
  class: className,
  danger,
}: {
  onSubmit: (values: Record<string, string>, form: HTMLFormElement) => Promise<unknown>;
  submit: string;
  children?: ComponentChildren;
  class?: string;
  danger?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const handle = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) values[name] = String(value);
    for (const box of form.querySelectorAll<HTMLInputElement>('input[type=checkbox][name]')) values[box.name] = String(box.checked);
    setBusy(true);
    setError(null);
    setFields({});
    try {
      if ((await onSubmit(values, form)) === true) form.reset();
    } catch (failure) {
      const details = failure instanceof ApiError ? (failure.details ?? []) : [];
      const byField = Object.fromEntries(details.map((detail) => [detail.field.split('.')[0]!, detail.message]));
      setFields(byField);
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FieldErrors.Provider value={fields}>
      <form class={className ?? 'form'} onSubmit={(event) => void handle(event)} aria-busy={busy}>
        {children}
        {error && <Notice kind="error">{error}</Notice>}
        <button type="submit" class={danger ? 'danger' : undefined} disabled={busy}>
          {busy ? 'Working…' : submit}
        </button>
      </form>
    </FieldErrors.Provider>
  );
}

/** What a Field passes on to its input (a plain subset: Preact's full input type is a union per `type`). */
type FieldProps = {
  name: string;
  label: string;
  hint?: string;
  type?: string;
  /** Controlled (with onInput); for a starting value the user edits, use defaultValue. */
  value?: string;
  defaultValue?: string;
  defaultChecked?: boolean;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  autocomplete?: string;
  placeholder?: string;
  /** A textarea instead of an input: text that may span lines, whose line breaks an input would drop. */
  multiline?: boolean;
  onInput?: (event: TargetedInputEvent<HTMLInputElement>) => void;
};

const withoutType = ({ type: _type, ...rest }: Omit<FieldProps, 'name' | 'label' | 'hint' | 'multiline'>) => rest;

/** A labelled input; shows the API's message for this field after a refused submit. */
export function Field({ name, label, hint, multiline, ...input }: FieldProps) {
  const error = useContext(FieldErrors)[name];
  const id = useId(); // unique on the page, though two forms (two players' ban forms) have fields of one name
  const shared = { id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
  return (
    <label class={input.type === 'checkbox' ? 'field checkbox' : 'field'} for={id}>
      <span>{label}</span>
      {multiline ? <textarea rows={2} {...shared} {...(withoutType(input) as object)} /> : <input {...shared} {...(input as object)} />}
      {hint && <small class="muted">{hint}</small>}
      {error && (
        <small class="field-error" id={`${id}-error`}>
          {error}
        </small>
      )}
    </label>
  );
}

/**
 * A labelled select. `value` holds it to a value (it is set again at every render); `initial` only chooses the option
 * shown first, leaving the choice to the user (a form that starts from a record's values).
 */
export function Select({
  name,
  label,
  options,
  value,
  initial,
}: {
  name: string;
  label: string;
  options: (string | [string, string])[];
  value?: string;
  initial?: string;
}) {
  const error = useContext(FieldErrors)[name];
  const id = useId();
  // The label does not wrap the select: its chosen option would become part of the label's name.
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} aria-invalid={error ? true : undefined}>
        {options.map((option) => {
          const [key, text] = typeof option === 'string' ? [option, option] : option;
          return (
            <option key={key} value={key} selected={initial === undefined ? undefined : key === initial}>
              {text}
            </option>
          );
        })}
      </select>
      {error && <small class="field-error">{error}</small>}
    </div>
  );
}

/** The API's message for `name` after a refused submit of the Form around it (for inputs that are not a Field). */
export const useFieldError = (name: string): string | undefined => useContext(FieldErrors)[name];

/** A button running an action, busy while it runs, showing its error beside it. */
export function Action({
  run,
  children,
  class: className,
  confirm: question,
  label,
}: {
  run: () => Promise<unknown>;
  children: ComponentChildren;
  class?: string;
  confirm?: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span class="action">
      <button
        type="button"
        class={className}
        aria-label={label}
        disabled={busy}
        onClick={() => {
          if (question && !confirm(question)) return;
          setBusy(true);
          setError(null);
          run()
            .catch((failure: unknown) => setError(messageOf(failure)))
            .finally(() => setBusy(false));
        }}
      >
        {children}
      </button>
      {error && (
        <span class="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** A secret shown once (a new API token, a machine's install line): the text to copy, a Copy button, and Done. */
export function ShownOnce({ label, notice, secret, onDone }: { label: string; notice: ComponentChildren; secret: string; onDone: () => void }) {
  return (
    <div class="one-liner" role="region" aria-label={label}>
      <Notice kind="success">{notice}</Notice>
      <pre class="command">{secret}</pre>
      <button type="button" class="secondary" onClick={() => void navigator.clipboard?.writeText(secret)}>
        Copy
      </button>
      <button type="button" class="link" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------- tables

type Column<T> = { title: string; cell: (row: T) => ComponentChildren; class?: string };

export function Table<T>({
  rows,
  columns,
  empty,
  rowKey,
  label,
}: {
  rows: T[];
  columns: Column<T>[];
  empty: string;
  rowKey: (row: T) => string;
  label?: string;
}) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.title} class={column.class}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.title} class={column.class}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Status({ status }: { status: string }) {
  return <span class={`status status-${status.toLowerCase()}`}>{status}</span>;
}

// ---------------------------------------------------------------------------------------------------------- format

export const formatTime = (value: string | null | undefined) => (value ? new Date(value).toLocaleString() : '—');
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

// ----------------------------------------------------------------------------------------------------------- chart

/** A line chart of one or more series over time, in SVG (gaps where points are missing). */
export function Chart({ title, points, series, unit }: { title: string; points: { at: string; values: (number | null)[] }[]; series: string[]; unit: string }) {
  const width = 600;
  const height = 160;
  if (points.length === 0)
    return (
      <figure class="chart">
        <figcaption>{title}</figcaption>
        <p class="muted">No data for this period.</p>
      </figure>
    );
  const times = points.map((point) => Date.parse(point.at));
  const start = Math.min(...times);
  const span = Math.max(1, Math.max(...times) - start);
  const max = Math.max(1, ...points.flatMap((point) => point.values.filter((value): value is number => value !== null)));
  const x = (at: number) => ((at - start) / span) * (width - 40) + 35;
  const y = (value: number) => height - 20 - (value / max) * (height - 30);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        <text x="0" y="14" class="axis">
          {max.toFixed(max < 10 ? 1 : 0)} {unit}
        </text>
        <text x="0" y={height - 22} class="axis">
          0
        </text>
        <line x1="35" x2={width - 5} y1={height - 20} y2={height - 20} class="axis-line" />
        {series.map((name, index) => {
          let path = '';
          let pen = false;
          points.forEach((point, at) => {
            const value = point.values[index];
            if (value === null || value === undefined) return void (pen = false);
            path += `${pen ? 'L' : 'M'}${x(times[at]!).toFixed(1)},${y(value).toFixed(1)}`;
            pen = true;
          });
          return <path key={name} d={path} class={`series series-${index}`} />;
        })}
        <text x="35" y={height - 4} class="axis">
          {new Date(start).toLocaleString()}
        </text>
        <text x={width - 5} y={height - 4} class="axis" text-anchor="end">
          {new Date(start + span).toLocaleString()}
        </text>
      </svg>
      {series.length > 1 && (
        <p class="legend">
          {series.map((name, index) => (
            <span key={name} class={`key series-${index}`}>
              {name}
            </span>
          ))}
        </p>
      )}
    </figure>
  );
}

/** Previous and next for a list shown a page at a time. */
export function Pager({ page, pages, go }: { page: number; pages: number; go: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next
      </button>
    </nav>
  );
}
