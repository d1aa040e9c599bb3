import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { memberships, projects } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { slugSchema } from '../slug.js';

const toView = (p: typeof projects.$inferSelect) => ({ id: p.id, slug: p.slug, name: p.name, createdAt: p.createdAt.toISOString() });

export const listProjects = defineOperation({
  name: 'projects.list',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  global: true,
  async run(ctx) {
    if (ctx.actor.kind === 'user') {
      const rows = await ctx.db.select({ p: projects, role: memberships.role }).from(memberships)
        .innerJoin(projects, eq(projects.id, memberships.projectId))
        .where(eq(memberships.userId, ctx.actor.userId)).orderBy(asc(projects.slug));
      return rows.map((r) => ({ ...toView(r.p), role: r.role }));
    }
    return (await ctx.db.select().from(projects).orderBy(asc(projects.slug))).map(toView);
  },
});

export const createProject = defineOperation({
  name: 'projects.create',
  input: z.strictObject({ slug: slugSchema, name: z.string().min(1).max(255).optional() }),
  // Projects are made from the terminal, by whoever holds the database.
  access: { role: null },
  write: true,
  global: true,
  async run(ctx, input) {
    const [row] = await ctx.db.insert(projects).values({ slug: input.slug, name: input.name ?? input.slug, createdAt: ctx.clock.now() })
      .onConflictDoNothing().returning();
    if (!row) throw new CmsError('SLUG_EXISTS', `Project ${input.slug} already exists`);
    return toView(row);
  },
});
