import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the schema; it never connects to a database (docs/architecture.md,
// "Data": one migration set for PGlite and PostgreSQL, applied by the server at start).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
