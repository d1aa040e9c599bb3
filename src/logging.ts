import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from './config.js';
import type { Logger } from './core/context.js';

export interface LoggerOptions {
  level: LogLevel;
  /** Human-readable lines (pino-pretty) instead of JSON: `cms serve` asks for them on a terminal. */
  pretty?: boolean;
  /** Where lines go; standard output by default. */
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
export async function createLogger(options: LoggerOptions): Promise<Logger> {
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
      colorize: true, sync: true, destination: 1, translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,method,route,status,durationMs,requestId',
      messageFormat: (line, messageKey) => line[messageKey] === 'request'
        ? `request ${String(line.method)} ${String(line.route)} ${String(line.status)} ${String(line.durationMs)} ms ${String(line.requestId)}`
        : String(line[messageKey]),
    });
  }
  const out = pino(settings, destination ?? pino.destination({ dest: 1, sync: true }));
  return {
    info: (message, data) => out.info(data ?? {}, message),
    warn: (message, data) => out.warn(data ?? {}, message),
    error: (message, data) => out.error(data ?? {}, message),
  };
}

