import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderChart } from './helpers/helm-subset.js';
import { createTestDatabase, productionMode, redisUrl, uniqueName } from './helpers/environment.js';
import { startS3Server, type S3Server } from './helpers/s3-server.js';

// What deploy/ ships, checked: the Helm chart's manifests against the Kubernetes schemas
// (kubernetes-models), the compose file's wiring, and the systemd recipe run for real: two nodes
// and a worker started with the units' own commands and settings, a request through each node.

const root = fileURLToPath(new URL('..', import.meta.url));
const chartDir = path.join(root, 'deploy/helm/support-platform');

async function validate(document: Record<string, any>) {
  const [group, version] = document.apiVersion.includes('/') ? document.apiVersion.split('/') : [null, document.apiVersion];
  const modulePath = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  const models = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[document.kind];
  if (!Model) throw new Error(`no schema for ${document.apiVersion} ${document.kind}`);
  new Model(document).validate();
}

describe('the Helm chart', () => {
  const { documents } = renderChart(chartDir, 'sp');
  const find = (kind: string, name: string) => documents.find((d) => d.kind === kind && d.metadata.name === name)!;

  it('renders manifests that the Kubernetes schemas accept', async () => {
    expect(documents.length).toBeGreaterThanOrEqual(7);
    for (const document of documents) await validate(document);
  });

  it('has schema validation that refuses a wrong manifest', async () => {
    const broken = structuredClone(find('Deployment', 'sp-web'));
    broken.spec.replicas = 'two';
    await expect(validate(broken)).rejects.toThrow(/replicas/);
  });

  it('runs web pods without workers, probed on /health and /ready', () => {
    const web = find('Deployment', 'sp-web').spec.template.spec.containers[0];
    expect(web.env).toContainEqual({ name: 'RUN_WORKERS', value: 'false' });
    expect(web.livenessProbe.httpGet.path).toBe('/health');
    expect(web.readinessProbe.httpGet.path).toBe('/ready');
  });

  it('runs workers with npm run workers and the migration as a pre-install/pre-upgrade job', () => {
    expect(find('Deployment', 'sp-worker').spec.template.spec.containers[0].command).toEqual(['npm', 'run', 'workers']);
    const job = find('Job', 'sp-migrate');
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job.spec.template.spec.containers[0].command).toEqual(['npm', 'run', 'db:migrate']);
  });

  it('autoscales both deployments', () => {
    expect(find('HorizontalPodAutoscaler', 'sp-web').spec.scaleTargetRef.name).toBe('sp-web');
    expect(find('HorizontalPodAutoscaler', 'sp-worker').spec.scaleTargetRef.name).toBe('sp-worker');
  });

  it('gives every pod only settings that src/config.ts knows', async () => {
    const { environmentVariables } = await import('../src/config.js');
    for (const name of Object.keys(find('ConfigMap', 'sp-env').data)) expect(Object.keys(environmentVariables)).toContain(name);
  });
});

describe('the compose file', () => {
  const compose = parse(readFileSync(path.join(root, 'deploy/compose/compose.yaml'), 'utf8'), { merge: true });

  it('runs web nodes without workers and workers alone, after the migration', () => {
    expect(compose.services.web.environment.RUN_WORKERS).toBe('false');
    expect(compose.services.worker.command).toEqual(['npm', 'run', 'workers']);
    expect(compose.services.migrate.command).toEqual(['npm', 'run', 'db:migrate']);
    expect(compose.services.web.depends_on.migrate.condition).toBe('service_completed_successfully');
  });

  it('gives web and workers one database, Redis, bucket and secret', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'FILES_URL', 'JWT_SECRET']) {
      expect(compose.services.web.environment[name]).toBeTruthy();
      expect(compose.services.web.environment[name]).toBe(compose.services.worker.environment[name]);
    }
  });
});

describe('starting a node, a worker or a migration', () => {
  // A unit's nodes and worker start at once, each through an npm script; one that regenerated the
  // Prisma client rewrote src/generated/prisma while the others imported it (ERR_MODULE_NOT_FOUND).
  it('leaves an up-to-date Prisma client as it is', () => {
    const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    const client = path.join(root, 'src/generated/prisma/client.ts');
    const before = statSync(client).mtimeMs;
    for (const name of ['prestart', 'workers', 'db:migrate', 'seed', 'bench', 'chaos']) {
      const firstStep = scripts[name].split('&&')[0].trim();
      execSync(firstStep, { cwd: root, stdio: 'ignore', env: { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}` } });
      expect(statSync(client).mtimeMs, `${name}: ${firstStep}`).toBe(before);
    }
  });
});

/** `KEY=value` lines of a systemd environment file or unit's Environment= settings. */
function unit(file: string) {
  const text = readFileSync(path.join(root, 'deploy/systemd', file), 'utf8');
  const setting = (key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);
  return { execStart: setting('ExecStart')[0], environment: Object.fromEntries(setting('Environment').map((pair) => pair.split(/=(.*)/s).slice(0, 2))) };
}

describe.skipIf(!productionMode)('the systemd recipe, run for real', () => {
  const children: ChildProcess[] = [];
  let s3: S3Server | undefined;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([once(child, 'exit'), new Promise((resolve) => setTimeout(resolve, 20_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
    await s3?.close();
    await database?.drop();
  });

  it('serves one cluster through each of two nodes, with a worker taking the jobs', async () => {
    database = await createTestDatabase();
    s3 = await startS3Server(['support-files']);
    // Every setting of the guide's env file, with this machine's services in place of the examples.
    const shared = parseEnvFile(readFileSync(path.join(root, 'deploy/systemd/env.example'), 'utf8'));
    const env: Record<string, string> = {
      ...shared,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      ...s3.env('support-files', 'production'),
      JWT_SECRET: 'cluster-secret-cluster-secret-0123456789',
      PUBLIC_URL: 'http://127.0.0.1',
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_DELAY_MS: '100',
      REDIS_PREFIX: uniqueName('spcluster'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    for (const name of Object.keys(shared)) expect(env[name], name).toBeTruthy();

    const web = unit('support-platform@.service');
    const worker = unit('support-platform-worker@.service');
    expect(web.environment.RUN_WORKERS).toBe('false');
    const start = (execStart: string, extra: Record<string, string>) => {
      const [command, ...args] = execStart.split(' ');
      const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-cluster-'));
      const child = spawn(path.basename(command), args, {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, DATA_DIR: dataDir, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return { child, dataDir, output: () => output };
    };
    const until = async <T>(what: string, read: () => T | undefined, output: () => string) => {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const value = read();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`${what} not seen: ${output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const listening = (process: ReturnType<typeof start>) =>
      until('server listening', () => /"url":"(http:\/\/[^"]+)"[^\n]*server listening/.exec(process.output())?.[1], process.output);

    // As the units start them: `npm start` with PORT from the instance name (here 0: a free port).
    const nodes = [start(web.execStart, { ...web.environment, PORT: '0' }), start(web.execStart, { ...web.environment, PORT: '0' })];
    const workers = [start(worker.execStart, worker.environment)];
    const [a, b] = await Promise.all(nodes.map(listening));
    await until('workers started', () => workers[0].output().includes('workers started') || undefined, workers[0].output);

    for (const url of [a, b]) expect((await fetch(`${url}/ready`)).status).toBe(200);
    const json = { 'content-type': 'application/json' };
    const signup = await fetch(`${a}/v3/auth/signup`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'ops@example.com', password: 'a long password', firstname: 'Ops' }) });
    expect(signup.status).toBe(200);
    // Signed in on B with the account made on A: one database and one JWT_SECRET.
    const signin = await fetch(`${b}/v3/auth/signin`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'ops@example.com', password: 'a long password' }) });
    const { token } = (await signin.json()) as { token: string };
    const created = await fetch(`${b}/v3/projects`, { method: 'POST', headers: { ...json, authorization: token }, body: JSON.stringify({ name: 'Cluster' }) });
    expect(created.status).toBe(200);
    const listed = (await (await fetch(`${a}/v3/projects`, { headers: { authorization: token } })).json()) as Array<{ id_project: { name: string } }>;
    expect(listed.map((entry) => entry.id_project.name)).toContain('Cluster');

    // A file uploaded through A is read through B (FILES_URL).
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode('%PDF-1.4\ntrailer << >>\n%%EOF')]), 'runbook.pdf');
    const uploaded = (await (await fetch(`${a}/v3/files/users`, { method: 'POST', headers: { authorization: token }, body: form })).json()) as { filename: string };
    const read = await fetch(`${b}/v3/files?path=${encodeURIComponent(uploaded.filename)}`, { headers: { authorization: token } });
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('%PDF-1.4');

    // The sign-up's verification e-mail is a job: with RUN_WORKERS=false on the nodes, the worker sends it.
    const outbox = (dir: string) => (existsSync(path.join(dir, 'outbox')) ? readdirSync(path.join(dir, 'outbox')) : []);
    await until('an e-mail in the worker\'s outbox', () => outbox(workers[0].dataDir).length > 0 || undefined, () => workers[0].output() + nodes[0].output());
    expect([...outbox(nodes[0].dataDir), ...outbox(nodes[1].dataDir)]).toEqual([]);
  }, 300_000);
});

function parseEnvFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
}
