import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from './config.js';
import type { Logger } from './core/context.js';

export interface LoggerOptions {
  level: LogLevel;
  /** Human-readable lines (pino-pretty) instead of JSON: `cms serve` asks for them on a terminal. */
  pretty?: boolean;
  /** Where lines go; standard error by default. */
  destination?: DestinationStream;
}

/**
 * Members of a log line's data that are never written, wherever they appear one level down:
 * credentials must not reach a log even if a caller passes them by mistake.
 */
const secretMembers = ['authorization', 'cookie', 'password', 'apiKey', 'api_key', 'key', 'token', 'secret'];

/**
 * The engine's Logger port (src/core/context.ts) on pino: one JSON line per entry (`level`,
 * `time`, `msg` and the entry's data), or pretty lines on a terminal. `cms serve` makes one
 * and hands it to the engine; the Local API's default stays silent.
 */
export async function createLogger(options: LoggerOptions): Promise<Logger & { flush(): void }> {
  const settings = {
    level: options.level,
    base: { pid: process.pid },
    // `"level":"info"` and an ISO time: lines a person can read as they are, and any log shipper too.
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...secretMembers, ...secretMembers.map((m) => `*.${m}`)], censor: '[redacted]' },
  };
  let destination = options.destination;
  if (!destination && options.pretty) {
    const { default: pretty } = await import('pino-pretty');
    // A request reads as one line on a terminal: `request GET /api/v1/pages/:slug 200 3.1 ms <id>`.
    destination = pretty({
      colorize: true, sync: true, destination: 2, translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,method,route,status,durationMs,requestId',
      messageFormat: (line, messageKey) => line[messageKey] === 'request'
        ? `request ${String(line.method)} ${String(line.route)} ${String(line.status)} ${String(line.durationMs)} ms ${String(line.requestId)}`
        : String(line[messageKey]),
    });
  }
  // Standard error, so standard output keeps only what the command prints (the URL line, or the
  // one JSON document of --json). Written without blocking: a reader that stops reading cannot
  // stall the server; past 16 MB waiting to be written, lines are dropped rather than held.
  const fallback = destination ? null : pino.destination({ dest: 2, sync: false, maxLength: 16 * 1024 * 1024 });
  const out = pino(settings, destination ?? fallback ?? undefined);
  return {
    /** Writes what is waiting (at shutdown); a reader that is gone loses it. */
    flush: () => { try { fallback?.flushSync(); } catch { /* the reader is gone or full: nothing to do */ } },
    info: (message, data) => out.info(data ?? {}, message),
    warn: (message, data) => out.warn(data ?? {}, message),
    error: (message, data) => out.error(data ?? {}, message),
  };
}

