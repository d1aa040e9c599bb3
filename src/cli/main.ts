import { Command, CommanderError, Option } from 'commander';
import { globalsOf, reportError, type ProgramState } from './command-kit.js';
import { processIo, type Io } from './io.js';
import { exitCodes, usageLine } from './output.js';
import { registerCommands } from './commands/index.js';
import { cliVersion } from './version.js';

/** Builds the whole program without parsing anything (tests and docs read it). */
export function createProgram(state: ProgramState): Command {
  const program = new Command('cms')
    .description('A headless CMS you run from the terminal: schemas, content, keys, webhooks and migrations, and `cms serve` for the HTTP API.')
    .version(cliVersion(), '-v, --version')
    .option('--json', 'print exactly one JSON document on stdout')
    .option('--config <file>', 'use this cms.config.json instead of searching upwards')
    .option('--project <slug>', 'the project to work on (default: the config\'s project, else "default")')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => state.io.stdout.write(s),
      writeErr: (s) => state.io.stderr.write(s),
      outputError: (s, write) => write(usageLine(s)),
    })
    .exitOverride()
    // Options belong to the command they follow: `cms pages update home --version 3` is the page's
    // version, not the CLI's. The global options are therefore known to every command as well.
    .enablePositionalOptions();
  registerCommands(program, state);
  const addGlobals = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.addOption(new Option('--json').hideHelp())
        .addOption(new Option('--config <file>').hideHelp())
        .addOption(new Option('--project <slug>').hideHelp());
      addGlobals(sub);
    }
  };
  addGlobals(program);
  return program;
}

const usageMessage = (e: CommanderError): string =>
  e.code === 'commander.help' ? 'A command is missing: the usage is printed on stderr' : e.message.replace(/^error:\s*/, '');

/** `--json` anywhere before a `--`: known even when the command line did not parse. */
const wantsJson = (argv: string[]): boolean => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
};

/** Commands that run long or do heavy work: V8 optimises PGlite's WebAssembly for them. */
const longRunning = new Set(['serve', 'dev', 'migrate', 'import', 'export']);

/**
 * Whether the command line names a short command: the command, found by skipping the global
 * options (and the values of --config and --project), is not a long-running one. bin/cms.mjs
 * compiles PGlite's WebAssembly with V8's baseline compiler only for these: a command that ends
 * within a second gains nothing from the optimising compiler, whose background jobs the process
 * had to wait for at exit (100 to 250 ms of `cms pages list`).
 */
export function isShortCommand(argv: string[]): boolean {
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--config' || arg === '--project') i++;
    else if (!arg.startsWith('-')) return !longRunning.has(arg);
  }
  return false;
}

const helpFlags = new Set(['--help', '-h']);
const answeredAtOnce = new Set(['--help', '-h', '--version', '-v']);

/**
 * Commander answers `--help` (and the program's `--version`) as soon as it meets them, before it
 * looks at the rest of the line; an unknown command or option beside them is still a usage error
 * (decisions: an unknown command or flag exits 2). Walks the line as commander reads it: the
 * commands it names, and each option among those of the command it follows (with its value).
 * The usage message, or null when the line has neither flag or nothing unknown.
 */
export function unknownBesideHelp(program: Command, args: string[]): string | null {
  const end = args.indexOf('--');
  const line = end === -1 ? args : args.slice(0, end);
  if (!line.some((a) => answeredAtOnce.has(a))) return null;
  let cmd = program;
  for (let i = 0; i < line.length; i++) {
    const arg = line[i]!;
    if (helpFlags.has(arg)) continue;
    if (arg.startsWith('-') && arg !== '-') {
      const flag = arg.split('=')[0]!;
      const option = cmd.options.find((o) => o.long === flag || o.short === flag);
      if (!option) return `unknown option '${flag}'`;
      const takes = !arg.includes('=') && (option.required || option.optional);
      if (takes && option.variadic) while (i + 1 < line.length && !line[i + 1]!.startsWith('-')) i++;
      else if (takes && (option.required || (i + 1 < line.length && !line[i + 1]!.startsWith('-')))) i++;
      continue;
    }
    // A command's own argument; `cms help <command>` is commander's.
    if (cmd.commands.length === 0) continue;
    if (arg === 'help') return null;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) return `unknown command '${arg}'`;
    cmd = sub;
  }
  return null;
}

export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  const state: ProgramState = { io, exitCode: exitCodes.ok };
  // `cms --version --json`: the version as the one JSON document --json promises.
  const args = argv.slice(2);
  if (args.includes('--json') && args.some((a) => a === '--version' || a === '-v') && args.every((a) => ['--json', '--version', '-v'].includes(a))) {
    io.stdout.write(JSON.stringify({ data: { version: cliVersion() } }, null, 2) + '\n');
    return exitCodes.ok;
  }
  const program = createProgram(state);
  const unknown = unknownBesideHelp(program, args);
  if (unknown) {
    io.stderr.write(`${usageLine(`error: ${unknown}`)}\n(run with --help for usage)\n`);
    if (wantsJson(argv)) io.stdout.write(JSON.stringify({ error: { code: 'USAGE', message: unknown } }, null, 2) + '\n');
    return exitCodes.usage;
  }
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return exitCodes.ok;
      // Commander has told the person on stderr; a script asking for JSON gets its one document too.
      if (wantsJson(argv)) {
        io.stdout.write(JSON.stringify({ error: { code: 'USAGE', message: usageMessage(e) } }, null, 2) + '\n');
      }
      return exitCodes.usage;
    }
    return reportError(io, globalsOf(program.opts()), e);
  }
  return state.exitCode;
}
