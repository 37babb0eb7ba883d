/**
 * The built-in catalogue (docs/templates.md#the-built-in-catalogue): one JSON file per game in `catalogue/` beside
 * this file, named after its id, read and validated once per process. A file that does not validate fails the
 * service's start, naming the file and the problem: a broken built-in is a release bug, never a server stuck later.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameType } from '../../schema/games.ts';
import { templateDocument, type TemplateDocument } from '../../schema/template.ts';

export const CATALOGUE_DIR = fileURLToPath(new URL('./catalogue/', import.meta.url));

/** Thrown when a built-in template is invalid (the service does not start). */
export class CatalogueError extends Error {}

export type Catalogue = {
  /** By id, in id order. */
  readonly templates: ReadonlyMap<string, TemplateDocument>;
  /** The built-in template a server of this game type gets when it names none (CUSTOM: none). */
  readonly byGameType: ReadonlyMap<GameType, TemplateDocument>;
};

/** The built-in template of each seed game type (the five games the agent knew in code). */
export const GAME_TYPE_TEMPLATES: Partial<Record<GameType, string>> = {
  MINECRAFT: 'minecraft-vanilla',
  RUST: 'rust',
  ARK_SURVIVAL_EVOLVED: 'ark-survival-evolved',
  CS2: 'cs2',
  VALHEIM: 'valheim',
};

/** Reads and validates every file of `dir`; throws CatalogueError naming each bad file. */
export function loadCatalogue(dir: string = CATALOGUE_DIR): Catalogue {
  const problems: string[] = [];
  const templates = new Map<string, TemplateDocument>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: not JSON (${(error as Error).message})`);
      continue;
    }
    const result = templateDocument.safeParse(parsed);
    if (!result.success) {
      problems.push(`${file}: ${result.error.issues.map((issue) => `${issue.path.join('.') || '(document)'}: ${issue.message}`).join('; ')}`);
      continue;
    }
    if (`${result.data.id}.json` !== file) problems.push(`${file}: its id is ${result.data.id}; the file must be named ${result.data.id}.json`);
    else templates.set(result.data.id, result.data);
  }
  const byGameType = new Map<GameType, TemplateDocument>();
  for (const [gameType, id] of Object.entries(GAME_TYPE_TEMPLATES) as [GameType, string][]) {
    const template = templates.get(id);
    if (!template) problems.push(`${id}.json: missing (the built-in template of ${gameType})`);
    else if (template.gameType !== gameType) problems.push(`${id}.json: gameType is ${template.gameType}, not ${gameType}`);
    else byGameType.set(gameType, template);
  }
  if (problems.length > 0) throw new CatalogueError(`the built-in template catalogue is invalid:\n${problems.join('\n')}`);
  return { templates, byGameType };
}

let loaded: Catalogue | undefined;

/** The catalogue of this process (loaded at the first call: the service's start calls it, so a bad file stops that). */
export function builtInCatalogue(): Catalogue {
  loaded ??= loadCatalogue();
  return loaded;
}

let versions: Record<string, number> | undefined;

/** Each built-in's version, by id. */
export function builtInVersions(): Record<string, number> {
  versions ??= Object.fromEntries([...builtInCatalogue().templates.values()].map((template) => [template.id, template.version]));
  return versions;
}
