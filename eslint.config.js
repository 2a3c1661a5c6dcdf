// ESLint for the whole repo (`make lint`, after Prettier's check). Its point is the boundaries of
// ../shared/DESIGN.md §3 and CONVENTIONS.md "Boundaries a tool can see": which layer may import which,
// and that a module is entered only through its public `index.ts`. Style is Prettier's job: no rule here
// formats, and only typescript-eslint's recommended rules that the code already keeps are on.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

// Tests and the test kits may reach into any module: they test its insides.
const TESTS = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/testing/**',
  '**/test/**',
  '**/e2e/**',
  // The account-deletion tests' shared scenario (driven through the API harness).
  'services/src/privacy/account-deletion/erasure-scenario.ts',
  // `npm run stand-ins`: serves the modules' test stand-ins (channels, Drive) for trying Kesher by hand.
  'services/src/main/stand-ins.main.ts',
];

// The layers (element types) and where they live. The first pattern that matches a file wins, so the narrow
// ones (platform, domain, api, main, workers) come before the catch-all `services/src/*`.
const elements = [
  { type: 'contracts', pattern: 'contracts/src' },
  { type: 'projections', pattern: 'projections/src' },
  { type: 'platform', pattern: 'services/src/platform' },
  { type: 'domain', pattern: 'services/src/domain' },
  { type: 'api', pattern: 'services/src/api' },
  { type: 'main', pattern: 'services/src/main' },
  { type: 'worker', pattern: 'services/src/workers/*', capture: ['worker'] },
  { type: 'testing', pattern: 'services/src/testing' },
  { type: 'module', pattern: 'services/src/*', capture: ['module'] },
  { type: 'feature', pattern: 'client/src/features/*', capture: ['feature'] },
  { type: 'app', pattern: 'client/src/app' },
  // The visitor build's own shell (public chat, shared chat, embed): like app/, it composes features.
  { type: 'app', pattern: 'client/src/visitor' },
  { type: 'shared-ui', pattern: 'client/src/components' },
  { type: 'client-lib', pattern: 'client/src/lib' },
  { type: 'locales', pattern: 'client/src/locales' },
];

// The decider's types and DomainError: the only part of platform a pure decider may touch.
// What a decider may take from the platform: its types, and the immutable structures its state grows in
// (pure code, no I/O).
const deciderKernel = {
  to: {
    element: {
      type: 'platform',
      fileInternalPath: ['commands/decider.ts', 'commands/recent-first-map.ts', 'commands/persistent-map.ts'],
    },
  },
};
const to = (...types) => ({ to: types.map((type) => ({ element: { type } })) });
// Another service module: only through its index.ts.
const moduleEntry = { to: { element: { type: 'module', fileInternalPath: 'index.ts' } } };
const SERVICE_BASE = ['contracts', 'projections', 'platform', 'domain'];

// Which layer may import which (DESIGN.md §3); an import no policy allows is an error. Imports inside one
// element (a module's own files, one feature's own files) are not checked.
const policies = [
  { from: { element: { type: 'projections' } }, allow: to('contracts') },
  // Platform is the shared kernel: it never imports a feature module, the facade or a composition root.
  { from: { element: { type: 'platform' } }, allow: to('contracts', 'projections') },
  // Deciders are pure (events in, events out): no event store, SQL or bus, that is no platform I/O.
  { from: { element: { type: 'domain' } }, allow: to('contracts') },
  { from: { element: { type: 'domain' } }, allow: deciderKernel },
  // A module uses the kernel and other modules' entries; HTTP belongs to api/, wiring to main/.
  { from: { element: { type: 'module' } }, allow: to(...SERVICE_BASE) },
  { from: { element: { type: 'module' } }, allow: moduleEntry },
  { from: { element: { type: 'api' } }, allow: to(...SERVICE_BASE) },
  { from: { element: { type: 'api' } }, allow: moduleEntry },
  // Workers share nothing with each other: what two of them need lives in platform or a module.
  { from: { element: { type: 'worker' } }, allow: to(...SERVICE_BASE) },
  { from: { element: { type: 'worker' } }, allow: moduleEntry },
  // The composition roots wire everything, modules still through their entries.
  { from: { element: { type: 'main' } }, allow: to(...SERVICE_BASE, 'api', 'worker') },
  { from: { element: { type: 'main' } }, allow: moduleEntry },
  // bulletproof-react: a feature uses the shared components and lib, never another feature or the app shell;
  // the app shell (router, routes, layout) composes the features.
  { from: { element: { type: 'feature' } }, allow: to('contracts', 'shared-ui', 'client-lib', 'locales') },
  { from: { element: { type: 'shared-ui' } }, allow: to('contracts', 'client-lib', 'locales') },
  { from: { element: { type: 'client-lib' } }, allow: to('contracts', 'locales', 'shared-ui') },
  { from: { element: { type: 'app' } }, allow: to('contracts', 'feature', 'shared-ui', 'client-lib', 'locales') },
  // Features that still import another feature (from → to). Each is a piece two features share, to be lifted
  // into components/ or lib/ (or the screen composing both into app/); no other feature-to-feature import passes.
  ...[
    ['assistants', '{chat,inbox,privacy}'], // Chat History: the chat's thread calls, the inbox's controls, retention
    ['embed', '{public-chat,privacy}'], // the embed is the public chat in a frame: its assistant, visitor deletion
    ['files', 'curated-answers'], // Manage Files' Q&A tab is the curated answers panel
    ['integrations', 'assistants'], // which assistant a channel answers for
  ].map(([from, target]) => ({
    from: { element: { type: 'feature', captured: { feature: from } } },
    allow: { to: { element: { type: 'feature', captured: { feature: target } } } },
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tsbuild/**',
      '**/.tsbuild/**',
      'bench-results/**',
      'coverage/**',
      'data/**',
      'ops/kafka/**',
      '**/fixtures/**',
      'docs/**',
      // Scratch files someone is working with; never committed.
      '**/*.tmp.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      // A variable declared before the callback that reads it and assigned once later stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A leading underscore says "deliberately unused" (a callback's unused argument, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // TypeScript itself reports undefined names, knowing the DOM and Node globals each tsconfig declares.
    files: ['**/*.ts', '**/*.tsx'],
    rules: { 'no-undef': 'off' },
  },
  {
    // The few plain scripts run on Node.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: { Buffer: 'readonly', URL: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
  {
    // Tests read JSON they were just given and build partial stand-ins.
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The upload name cleaner strips control characters and invisible format characters on purpose (its
    // INVISIBLE pattern keeps the joiners of emoji sequences out of the class it removes).
    files: ['services/src/knowledge/ingest/upload-filename.ts'],
    rules: { 'no-control-regex': 'off', 'no-misleading-character-class': 'off' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'import/resolver': {
        typescript: {
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
          project: [
            'contracts/tsconfig.json',
            'projections/tsconfig.json',
            'services/tsconfig.json',
            'client/tsconfig.json',
            'ops/tsconfig.json',
          ],
        },
      },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
    },
  },
);
