/**
 * Import boundaries, checked by `npm run lint` (and the lint step of `npm test`).
 * Web app:
 * - a feature reaches another feature only through that feature's `index.ts`;
 * - the shared floors (`components/`, `lib/`, `config/`) never reach up into `features/` or `app/`.
 * Server:
 * - the floors below the modules (`http/`, `access/`, `security/`, `db/`, `config.ts`, `errors.ts`,
 *   `providers/`) never reach up into `modules/`; the access policy `access/`, `security/`, `db/`,
 *   `config.ts` and the error catalogue `errors.ts` never reach up into `http/`; nothing below the entry points imports `app.ts`, `runtime.ts`,
 *   `main.ts` or `cli/`;
 * - the synthetic-data wing is reached only through `sandbox/index.ts`, and only from above it (the
 *   entry points and `registry.ts`): `providers/` and `modules/` never import it.
 * Everywhere: no import circle, and the domain package imports neither app.
 * Run: npx depcruise apps/web/src apps/server/src packages/domain/src --config .dependency-cruiser.cjs
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-insides',
      comment:
        'A feature may use another feature only through its public index.ts; move shared pieces to components/ or lib/, or export them from that index.ts.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: {
        path: '^apps/web/src/features/([^/]+)/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'no-circular',
      comment: 'Import circles make the load order fragile and the layers meaningless.',
      severity: 'error',
      from: { path: '^(apps/(web|server)|packages/domain)/src/' },
      to: { circular: true },
    },
    {
      name: 'server-floors-stay-down',
      comment:
        'http/, access/, security/, db/, config.ts, errors.ts and providers/ serve the modules; a module-level need belongs in the module, or the piece moves down.',
      severity: 'error',
      from: {
        path: '^apps/server/src/(http|access|security|db|providers)/|^apps/server/src/(config|errors)\\.ts$',
      },
      to: { path: '^apps/server/src/(modules|cli)/|^apps/server/src/(app|runtime|main)\\.ts$' },
    },
    {
      name: 'server-http-above-security-and-db',
      comment:
        'access/, security/, db/, config.ts and the error catalogue (errors.ts) sit below the HTTP layer: they report with their own types and codes, and http/ maps them to answers.',
      severity: 'error',
      from: { path: '^apps/server/src/(access|security|db)/|^apps/server/src/(config|errors)\\.ts$' },
      to: { path: '^apps/server/src/http/' },
    },
    {
      name: 'server-entry-points-on-top',
      comment:
        'app.ts wires the modules, runtime.ts starts them, main.ts and cli/ are the entry points: none is imported from below.',
      severity: 'error',
      from: { path: '^apps/server/src/(modules|http|access|security|db|providers|sandbox)/' },
      to: { path: '^apps/server/src/(cli/|(app|runtime|main)\\.ts$)' },
    },
    {
      name: 'providers-below-the-sandbox',
      comment:
        'providers/ holds the provider contract, the runner and the vendor adapters; the sandbox builds on them, and src/registry.ts chooses between the two.',
      severity: 'error',
      from: { path: '^apps/server/src/providers/' },
      to: { path: '^apps/server/src/sandbox/' },
    },
    {
      name: 'modules-below-the-sandbox',
      comment:
        'The sandbox writes synthetic leak records through the leak importer, so the modules never import the sandbox; the entry points (cli/, runtime.ts, registry.ts) do.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/' },
      to: { path: '^apps/server/src/sandbox/' },
    },
    {
      name: 'sandbox-through-its-index',
      comment:
        'The synthetic-data wing is one unit: outside it, import only apps/server/src/sandbox/index.ts.',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: '^apps/server/src/sandbox/' },
      to: { path: '^apps/server/src/sandbox/', pathNot: '^apps/server/src/sandbox/index\\.ts$' },
    },
    {
      name: 'domain-stands-alone',
      comment: 'The domain package is shared by the web and the server and imports neither.',
      severity: 'error',
      from: { path: '^packages/domain/src/' },
      to: { path: '^apps/' },
    },
    {
      name: 'shared-floors-stay-down',
      comment: 'components/, lib/ and config/ are used by the features and the app shell, never the reverse.',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib|config)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
