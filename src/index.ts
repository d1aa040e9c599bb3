// The public API of the package (`import { createCms } from 'cms'`), listed by hand: the engine
// (the Local API, docs/local-api.md), its configuration, and the types of what goes in and out.

export const version = "0.1.0";

export { createCms, inMemoryDatabaseUrl, systemClock, silentLogger, consoleLogger } from './runtime.js';
export type { Cms, CmsEvents, CreateCmsOptions, EmittedEvent, RunOptions } from './runtime.js';
export { loadConfig, resolveConfig, ConfigError } from './config.js';
export type { CmsConfig, CmsConfigInput, LoadConfigOptions } from './config.js';
export type { Actor } from './core/actor.js';
export type { Role, Permission, KeyType } from './core/roles.js';
export type { Clock, Logger, Services, EventKind } from './core/context.js';
export { eventKinds } from './core/context.js';
export { CmsError, isCmsError, errorCodes } from './core/errors.js';
export type { ErrorCode, Issue } from './core/errors.js';
export { operations, isOperationName } from './core/registry.js';
export type { Operations, OperationName, InputOf, OutputOf } from './core/registry.js';
export type { MediaFiles, MediaStore, MediaLocation, ByteRange, WriteBody } from './core/media/storage.js';
export type { MigrationRunner } from './core/migrations/port.js';
export type { WebhookDispatcher, WebhookPassSummary } from './core/webhooks/port.js';
export type { AiProvider, AiService, AiRequest, AiAnswer } from './core/ai/port.js';
