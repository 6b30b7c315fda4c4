const { productionConfig } = await import('./bench/environment.ts');
const { createInfrastructure } = await import('./src/infra/index.ts');
const env = await productionConfig();
const infra = await createInfrastructure(env.config);
const db = infra.database.prisma;
const u = await db.user.create({ data: { firstname: 'x' } });
const measure = async (label: string, f: () => Promise<unknown>) => {
  for (let i = 0; i < 200; i++) await f();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 1000; i++) await f();
  const c = process.cpuUsage(c0);
  console.log(label, 'wall ms', ((performance.now() - t0) / 1000).toFixed(3), 'cpu ms', ((c.user + c.system) / 1000 / 1000).toFixed(3));
};
await measure('findUnique', () => db.user.findUnique({ where: { id: u.id } }));
await measure('$queryRaw', () => db.$queryRaw`SELECT * FROM "User" WHERE id = ${u.id}`);
await measure('tx 1 query', () => db.$transaction(async (tx) => tx.user.findUnique({ where: { id: u.id } })));
const pg = (await import('pg')).default; const pool = new pg.Pool({ connectionString: env.databaseUrl });
await measure('raw pg', () => pool.query('SELECT * FROM "User" WHERE id = $1', [u.id]));
await pool.end(); await infra.close(); await env.drop();
