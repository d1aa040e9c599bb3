#!/usr/bin/env node
// `cms --version` alone is answered before the CLI loads (it must stay under 150 ms); every other
// command line, `--version` among other arguments included, goes to the CLI as it is.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const { cliVersion } = await import('../dist/cli/version.js');
  process.stdout.write(`${cliVersion()}\n`);
} else {
  // A reader that stops early (`cms openapi | head`) closes the pipe: the rest is not wanted, and
  // that is no failure (no stack trace). Other errors of standard output stay errors.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  const { run, isShortCommand } = await import('../dist/cli-bundle/main.js');
  // Set before PGlite compiles its WebAssembly (when the command opens the database).
  if (isShortCommand(process.argv)) (await import('node:v8')).setFlagsFromString('--liftoff-only');
  process.exitCode = await run(process.argv);
}
