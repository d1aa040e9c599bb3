import { describe, expectTypeOf, it } from 'vitest';
import type { OutputOf } from '../../src/core/registry.js';
import type { Engine, Jsonified } from '../../src/cli/engine.js';

/** Checked by the type checker (`npx tsc --noEmit`): what a command gets back from the engine. */
describe('Jsonified: an answer after the JSON trip between the doors', () => {
  it('turns dates into strings and drops what JSON drops', () => {
    type Row = { at: Date; name: string; note?: string; maybe: number | undefined; run: () => void; list: Array<Date | undefined> };
    expectTypeOf<Jsonified<Row>>().toEqualTypeOf<{ at: string; name: string; note?: string; maybe?: number; list: Array<string | null> }>();
    expectTypeOf<Jsonified<undefined>>().toEqualTypeOf<null>();
    expectTypeOf<Jsonified<unknown>>().toEqualTypeOf<unknown>();
  });

  it('types engine.run by the operation name', () => {
    // Never called: the type checker reads it.
    const commands = async (e: Engine) => {
      const status = await e.run('db.status', {});
      expectTypeOf(status).toEqualTypeOf<Jsonified<OutputOf<'db.status'>>>();
      expectTypeOf(status.pending).toEqualTypeOf<number>();
      const revoked = await e.run('keys.revoke', { id: 'key' });
      expectTypeOf(revoked.id).toEqualTypeOf<string>();
    };
    expectTypeOf(commands).toBeFunction();
  });
});
