import type { Command } from 'commander';
import type { ProgramState } from '../main.js';

export function registerMigrate(_program: Command, _state: ProgramState): void {}
