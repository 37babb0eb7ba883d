/**
 * The layers and the one direction their imports may point (docs/architecture.md):
 *
 *   main.ts ─▶ api ─▶ orchestrator ─▶ sql ─▶ schema
 *   api/routes ─▶ orchestrator's domain functions, never SQL of their own
 *   agent ─▶ schema
 *   api/clients ─▶ nothing of ours (published client packages)
 *   api/dashboard/app ─▶ api/clients only (browser code, bundled by the service)
 *   test may import anything.
 *
 * `npm run lint` runs this; a wrong import fails with the name of the rule it breaks.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'schema-imports-nothing-of-ours',
      comment: 'schema/ is the shared vocabulary (zod schemas, errors, enums, configuration): it imports no other folder.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(api|orchestrator|agent|sql|test)/|^main\\.ts$' },
    },
    {
      name: 'sql-sees-only-schema',
      comment: 'sql/ (pool, migrations, embedded Postgres, LISTEN) sits under the domain: it may import schema/ only.',
      severity: 'error',
      from: { path: '^sql/' },
      to: { path: '^(api|orchestrator|agent|test)/|^main\\.ts$' },
    },
    {
      name: 'orchestrator-never-imports-api',
      comment: 'orchestrator/ (jobs, gateway, tasks, players, worker) runs without HTTP: it may import sql/ and schema/ only.',
      severity: 'error',
      from: { path: '^orchestrator/' },
      to: { path: '^(api|agent|test)/|^main\\.ts$' },
    },
    {
      name: 'api-never-imports-agent',
      comment: 'api/ talks to agents only through the orchestrator and the database, never by importing agent code.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(agent|test)/|^main\\.ts$' },
    },
    {
      name: 'routes-build-no-sql',
      comment:
        "api/routes/ parse, authorize, call a domain function of orchestrator/ and answer: they import neither slonik's `sql` tag nor " +
        'sql/listing.ts (which builds ORDER BY and LIMIT), so no query is written in a route. Type imports of slonik (a connection handed on) are fine. ' +
        'No exceptions: every route calls its domain module.',
      severity: 'error',
      from: { path: '^api/routes/' },
      to: { path: '^node_modules/slonik/|^sql/listing\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'agent-sees-only-schema',
      comment: 'agent/ is installed on machines without the service: it may import schema/ only.',
      severity: 'error',
      from: { path: '^agent/' },
      to: { path: '^(api|orchestrator|sql|test)/|^main\\.ts$' },
    },
    {
      name: 'clients-import-nothing-of-the-service',
      comment: 'api/clients/ are published packages for scripts and browsers: they import nothing of the service, only their own files.',
      severity: 'error',
      from: { path: '^api/clients/' },
      to: { path: '^(api/(?!clients/)|orchestrator/|agent/|schema/|sql/|test/)|^main\\.ts$' },
    },
    {
      name: 'dashboard-app-sees-only-the-clients',
      comment: 'api/dashboard/app/ runs in browsers: it calls the API through the TypeScript client and imports nothing else of ours.',
      severity: 'error',
      from: { path: '^api/dashboard/app/' },
      to: { path: '^(api/(?!clients/|dashboard/app/)|orchestrator/|agent/|schema/|sql/|test/)|^main\\.ts$' },
    },
    {
      name: 'no-cycles',
      comment: 'Modules import each other in one direction: a cycle means a concept is split across files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'An import that does not resolve to a file is a typo or a file moved without its importers.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // node_modules stays in the graph (not followed) so that a rule can name a package: routes-build-no-sql.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(data|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
