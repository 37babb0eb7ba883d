/**
 * The newest version of a server's template, in SQL over `servers s`: a cluster template's stored version, else the
 * built-in's (docs/templates.md#versions). A server's `template_version` is the one its run was started with (as its
 * agent reports it); this one is what its next start runs.
 */
import { sql, type FragmentSqlToken } from 'slonik';
import { builtInVersions } from './catalogue.ts';

let fragment: FragmentSqlToken | undefined;

export function latestTemplateVersion(): FragmentSqlToken {
  // Built once: the catalogue is read at the first call, not when this module loads.
  fragment ??= sql.fragment`coalesce(
    (SELECT t.version FROM cluster_templates t
      WHERE t.id = (CASE WHEN s.template_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN s.template_id::uuid END)
        AND t.cluster_id = s.cluster_id),
    (${sql.jsonb(builtInVersions())}::jsonb ->> s.template_id)::int)`;
  return fragment;
}
