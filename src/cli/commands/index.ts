import type { Command } from 'commander';
import type { ProgramState } from '../command-kit.js';
import { registerAi } from './ai.js';
import { registerBlog } from './blog.js';
import { registerContent } from './content.js';
import { registerDb } from './db.js';
import { registerDev } from './dev.js';
import { registerMedia } from './media.js';
import { registerMigrate } from './migrate.js';
import { registerWebhooks } from './webhooks.js';
import { registerInit } from './init.js';
import { registerKeys } from './keys.js';
import { registerLocales } from './locales.js';
import { registerProjects } from './projects.js';
import { registerSchema } from './schema.js';
import { registerServe, registerStop } from './serve.js';
import { registerOpenApi } from './openapi.js';
import { registerTransfer } from './transfer.js';
import { registerTypes } from './types.js';
import { registerUsers } from './users.js';

/** Every noun of the CLI. Command modules are light; their actions import what they need. */
export function registerCommands(program: Command, state: ProgramState): void {
  registerInit(program, state);
  registerServe(program, state);
  registerStop(program, state);
  registerDev(program, state);
  registerSchema(program, state);
  registerTypes(program, state);
  registerOpenApi(program, state);
  registerContent(program, state);
  registerMedia(program, state);
  registerBlog(program, state);
  registerWebhooks(program, state);
  registerMigrate(program, state);
  registerLocales(program, state);
  registerAi(program, state);
  registerKeys(program, state);
  registerUsers(program, state);
  registerProjects(program, state);
  registerTransfer(program, state);
  registerDb(program, state);
}
