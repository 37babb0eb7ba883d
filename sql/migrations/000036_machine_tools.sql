-- The programs a machine's agent reports in its host facts (schema/tools.ts): what a template's install needs is
-- checked against them before an INSTALL or UPDATE is accepted (docs/templates.md#tools). Null: not reported yet (an
-- agent before templates, or one that has not sent its host facts since).
ALTER TABLE machines ADD COLUMN tools text[];
