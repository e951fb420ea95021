import { defineConfig } from 'prisma/config';

// env() would throw when DATABASE_URL is unset and break `prisma generate`.
// The server itself never reads this file: it connects through src/persistence/database.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/placeholder' },
});
