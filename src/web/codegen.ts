import type { CodegenConfig } from '@graphql-codegen/cli';

// The console's and the widget's GraphQL operations, typed from the committed schema. The output
// is committed (client/gql/); test/console-codegen.test.ts fails when regenerating it differs, so a
// schema change that breaks an operation shows up as a type error or a stale file.
// Regenerate: npx graphql-codegen --config src/web/codegen.ts
export const codegenConfig: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['src/web/client/**/*.{ts,tsx}', '!src/web/client/gql/**'],
  generates: {
    'src/web/client/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { documentMode: 'string', useTypeImports: true, enumsAsTypes: true, scalars: { JSON: 'any', DateTime: 'string' } },
    },
  },
  emitLegacyCommonJSImports: false,
  silent: true,
};

export default codegenConfig;
