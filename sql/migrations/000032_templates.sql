-- Game templates (docs/templates.md). A cluster's own templates: one row per template, its latest document (the API
-- validates it against schema/template.ts; `version` grows by one at each change). The built-in catalogue is not
-- stored: it ships with the service (catalogue/*.json).
CREATE TABLE cluster_templates (
  id uuid PRIMARY KEY DEFAULT gsm_uuid_v7(),
  cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  document jsonb NOT NULL CHECK (jsonb_typeof(document) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cluster_id, slug)
);

-- A server's template: a built-in's id (its slug) or a cluster template's id (a uuid, as text); null: none (a CUSTOM
-- server's own start command and behaviour). `template_version`: the version its last start ran. `variables`: the
-- server's values, by variable name; `secret_variables` those of its secret variables (the API never returns them, only
-- whether each is set).
ALTER TABLE servers
  ADD COLUMN template_id text,
  ADD COLUMN template_version integer,
  ADD COLUMN variables jsonb NOT NULL DEFAULT '{}' CONSTRAINT servers_variables_object CHECK (jsonb_typeof(variables) = 'object'),
  ADD COLUMN secret_variables jsonb NOT NULL DEFAULT '{}' CONSTRAINT servers_secret_variables_object CHECK (jsonb_typeof(secret_variables) = 'object');
CREATE INDEX servers_template ON servers (template_id) WHERE template_id IS NOT NULL;

-- Servers of the five games the agent knew in code run their game's built-in template from now on.
UPDATE servers SET template_id = CASE game_type
    WHEN 'MINECRAFT' THEN 'minecraft-vanilla'
    WHEN 'RUST' THEN 'rust'
    WHEN 'ARK_SURVIVAL_EVOLVED' THEN 'ark-survival-evolved'
    WHEN 'CS2' THEN 'cs2'
    WHEN 'VALHEIM' THEN 'valheim'
  END, template_version = 1
 WHERE game_type <> 'CUSTOM';
