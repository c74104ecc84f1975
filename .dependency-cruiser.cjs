/**
 * The web app's import boundaries, checked by `npm run lint` (and the lint step of `npm test`):
 * - a feature reaches another feature only through that feature's `index.ts`;
 * - no import circle anywhere in the web app;
 * - the shared floors (`components/`, `lib/`, `config/`) never reach up into `features/` or `app/`.
 * Run: npx depcruise apps/web/src --config .dependency-cruiser.cjs
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
      from: { path: '^apps/web/src/' },
      to: { circular: true },
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
