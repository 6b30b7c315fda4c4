// `npm test`: the type checks (the server, tests and benches; the browser clients) run beside the
// test suite instead of before it: the suite leaves about a quarter of two cores idle (it waits on
// processes, browsers and timers), which the checks fill. Their output is printed once they end,
// after the suite's; the run fails when any of the three does.
import { spawn } from 'node:child_process';

function run(command: string, args: string[], captured: boolean) {
  const child = spawn(command, args, { stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise<{ name: string; code: number; output: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ name: [command, ...args].join(' '), code: code ?? (signal ? 1 : 0), output })),
  );
}

const checks = Promise.all([run('npx', ['tsc', '-p', '.'], true), run('npx', ['tsc', '-p', 'src/web/client'], true)]);
// Arguments go to vitest: `npm test -- test/tags.test.ts` runs one file (the checks still cover everything).
const suite = await run('npx', ['vitest', 'run', '--config', 'test/vitest.config.ts', ...process.argv.slice(2)], false);
let failed = suite.code !== 0;
for (const check of await checks) {
  if (check.code === 0) continue;
  failed = true;
  process.stderr.write(`\n${check.name} failed:\n${check.output}`);
}
process.exit(failed ? 1 : 0);
