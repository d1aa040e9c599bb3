import type { Command } from 'commander';
import type { ProgramState } from '../main.js';

/** Adds the admin verbs (clone, versions, restore, schedule, bulk…) to `cms pages` and `cms items`. */
export function registerContentAdmin(_pages: Command, _items: Command, _state: ProgramState): void {}
