import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, doorNames, type ContentHarness } from './support.js';

/** Collection filtering: filter[field][operator]=value, every operator and rule of the contract. */
describe('collection filters', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
    const items: Array<{ slug: string; name: string; fields: Record<string, unknown>; status?: string }> = [
      { slug: 'hammer', name: 'Hammer', fields: { price: 10, sku: 'H-1', rank: '10', featured: true, meta: { size: 3, weight: '12.5', tags: ['a'] } } },
      { slug: 'saw', name: 'Saw', fields: { price: 25.5, sku: '100%_pure', rank: '2', featured: false, meta: { size: 5, weight: 'heavy' } } },
      { slug: 'drill', name: 'Drill', fields: { price: 99, sku: 'C:\\tools\\drill', rank: 'n/a', meta: { size: 10, weight: 7 } } },
      { slug: 'nails', name: 'Nails 50% off', fields: { price: 1, sku: 'NAIL_BOX', rank: '-3', meta: { size: '8' } } },
      { slug: 'glue', name: 'Glue', fields: { sku: 'glue', rank: '1e2', meta: { weight: true } } },
      { slug: 'tape', name: 'TAPE roll', fields: { price: 3, sku: 'Tape-Roll' } },
      { slug: 'ruler', name: 'Ruler', fields: { price: 7, sku: 'ruler' }, status: 'draft' },
    ];
    for (const item of items) await h.createItem('products', { status: 'published', ...item });
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const query = (q: string) => h.get(`/api/v1/collections/products?sort=slug&${q}`, { door });
      const slugs = async (q: string) => {
        const r = await query(q);
        const body = await r.json();
        expect(r.status, `${q}: ${JSON.stringify(body)}`).toBe(200);
        return body.data.map((i: any) => i.slug);
      };
      const error = async (q: string) => {
        const r = await query(q);
        return { status: r.status, body: await r.json() };
      };

      it('eq is the default operator; ne, on core and content fields', async () => {
        expect(await slugs('filter[name]=Saw')).toEqual(['saw']);
        expect(await slugs('filter[name][eq]=Saw')).toEqual(['saw']);
        expect(await slugs('filter[slug]=drill')).toEqual(['drill']);
        expect(await slugs('filter[fields.sku]=H-1')).toEqual(['hammer']);
        expect(await slugs('filter[fields.price]=25.5')).toEqual(['saw']);
        expect(await slugs('filter[fields.featured]=true')).toEqual(['hammer']);
        expect(await slugs('filter[slug][ne]=saw')).toEqual(['drill', 'glue', 'hammer', 'nails', 'tape']);
        // eq compares exactly (case matters); the draft item is never there.
        expect(await slugs('filter[name]=saw')).toEqual([]);
        expect(await slugs('filter[slug]=ruler')).toEqual([]);
      });

      it('follows nested JSON paths', async () => {
        expect(await slugs('filter[fields.meta.size]=5')).toEqual(['saw']);
        expect(await slugs('filter[fields.meta.size][gte]=5')).toEqual(['drill', 'nails', 'saw']);
        expect(await slugs('filter[fields.meta.missing.deeper]=x')).toEqual([]);
        // A path of any depth is a value, not SQL: 300 segments answer, and match nothing here.
        const deep = `fields.${Array.from({ length: 300 }, (_, i) => `k${i}`).join('.')}`;
        expect(await slugs(`filter[${deep}]=x`)).toEqual([]);
        expect(await slugs(`filter[${deep}][gt]=1`)).toEqual([]);
      });

      it('gt, lt, gte and lte compare as numbers, not as text', async () => {
        expect(await slugs('filter[fields.price][gt]=9')).toEqual(['drill', 'hammer', 'saw']);
        expect(await slugs('filter[fields.price][gte]=10')).toEqual(['drill', 'hammer', 'saw']);
        expect(await slugs('filter[fields.price][lt]=10')).toEqual(['nails', 'tape']);
        expect(await slugs('filter[fields.price][lte]=10')).toEqual(['hammer', 'nails', 'tape']);
        expect(await slugs('filter[fields.price][gt]=25.4&filter[fields.price][lt]=25.6')).toEqual(['saw']);
        expect(await slugs('filter[fields.price][gt]=-1.5')).toEqual(['drill', 'hammer', 'nails', 'saw', 'tape']);
        // As text "99" < "100"; as numbers it is not.
        expect(await slugs('filter[fields.price][gt]=100')).toEqual([]);
      });

      it('casts stored strings that look numeric; values that are not numbers never match and never fail', async () => {
        // rank is a text field: "10", "2", "n/a", "-3", "1e2".
        expect(await slugs('filter[fields.rank][gt]=5')).toEqual(['glue', 'hammer']);
        expect(await slugs('filter[fields.rank][lt]=5')).toEqual(['nails', 'saw']);
        expect(await slugs('filter[fields.rank][gte]=-3')).toEqual(['glue', 'hammer', 'nails', 'saw']);
        // meta.weight holds "12.5", "heavy", 7 and true.
        expect(await slugs('filter[fields.meta.weight][gt]=0')).toEqual(['drill', 'hammer']);
        expect(await slugs('filter[fields.meta.weight][lte]=100')).toEqual(['drill', 'hammer']);
        // Objects and arrays are not numbers either.
        expect(await slugs('filter[fields.meta][gt]=0')).toEqual([]);
        expect(await slugs('filter[fields.meta.tags][lt]=5')).toEqual([]);
        // Text core columns are not numbers.
        expect(await slugs('filter[name][gt]=0')).toEqual([]);
      });

      it('refuses a comparison value that is not a number with 400 INVALID_QUERY (never 500)', async () => {
        for (const q of ['filter[fields.price][gt]=cheap', 'filter[fields.price][lt]=', 'filter[fields.price][gte]=1,2', 'filter[fields.price][lte]=NaN']) {
          const { status, body } = await error(q);
          expect(status, q).toBe(400);
          expect(body.error.code, q).toBe('INVALID_QUERY');
        }
      });

      it('contains: substring, case-insensitive, with %, _ and \\ matched literally', async () => {
        expect(await slugs('filter[name][contains]=ape')).toEqual(['tape']);
        expect(await slugs('filter[name][contains]=tape')).toEqual(['tape']);
        expect(await slugs('filter[fields.sku][contains]=ROLL')).toEqual(['tape']);
        expect(await slugs(`filter[name][contains]=${encodeURIComponent('%')}`)).toEqual(['nails']);
        expect(await slugs(`filter[fields.sku][contains]=${encodeURIComponent('%_')}`)).toEqual(['saw']);
        expect(await slugs('filter[fields.sku][contains]=_')).toEqual(['nails', 'saw']);
        expect(await slugs(`filter[fields.sku][contains]=${encodeURIComponent('\\')}`)).toEqual(['drill']);
        expect(await slugs(`filter[fields.sku][contains]=${encodeURIComponent('c:\\tools\\')}`)).toEqual(['drill']);
        // % and _ are not wildcards: "h%1" and "h_1" do not match "H-1".
        expect(await slugs(`filter[fields.sku][contains]=${encodeURIComponent('h%1')}`)).toEqual([]);
        expect(await slugs('filter[fields.sku][contains]=h_1')).toEqual([]);
        // A number stored in the content is matched as its text.
        expect(await slugs('filter[fields.price][contains]=5.5')).toEqual(['saw']);
      });

      it('in: a comma-separated list', async () => {
        expect(await slugs('filter[slug][in]=saw,drill,nothing')).toEqual(['drill', 'saw']);
        expect(await slugs('filter[fields.sku][in]=H-1,glue')).toEqual(['glue', 'hammer']);
        expect(await slugs('filter[fields.price][in]=1,3')).toEqual(['nails', 'tape']);
        expect(await slugs('filter[name][in]=Nope')).toEqual([]);
      });

      it('combines conditions with AND and counts only matches', async () => {
        const r = await query('filter[fields.price][gte]=3&filter[name][contains]=a&limit=1');
        const body = await r.json();
        // hammer (10), saw (25.5), tape (3) have an "a" and cost at least 3.
        expect(body.pagination).toEqual({ total: 3, page: 1, limit: 1, totalPages: 3 });
        expect(body.data.map((i: any) => i.slug)).toEqual(['hammer']);
      });

      it('applies the first 20 conditions and silently drops the rest', async () => {
        const twenty = Array.from({ length: 20 }, () => 'filter[fields.price][gte]=0').join('&');
        expect(await slugs(twenty)).toEqual(['drill', 'hammer', 'nails', 'saw', 'tape']);
        // A 21st condition that would match nothing is ignored...
        expect(await slugs(`${twenty}&filter[slug]=no-such-item`)).toEqual(['drill', 'hammer', 'nails', 'saw', 'tape']);
        // ...as is a 21st that would be an error.
        expect(await slugs(`${twenty}&filter[id]=x&filter[fields.a..b]=y`)).toEqual(['drill', 'hammer', 'nails', 'saw', 'tape']);
        // The same condition as the 20th does apply.
        const nineteen = Array.from({ length: 19 }, () => 'filter[fields.price][gte]=0').join('&');
        expect(await slugs(`${nineteen}&filter[slug]=no-such-item`)).toEqual([]);
      });

      it('refuses malformed fields. paths with INVALID_JSON_FIELD_PATH', async () => {
        for (const field of ['fields.a..b', 'fields..a', 'fields.a.', 'fields.a-b', 'fields.', 'fields', 'fields.a b', "fields.a'b", 'fields.a[0]']) {
          const { status, body } = await error(`filter[${encodeURIComponent(field)}]=1`);
          expect(status, field).toBe(400);
          expect(body.error.code, field).toBe('INVALID_JSON_FIELD_PATH');
          expect(typeof body.error.message).toBe('string');
        }
        // Underscores, digits and dots are fine.
        expect(await slugs('filter[fields.meta_2.x_1]=1')).toEqual([]);
      });

      it('refuses core fields other than name and slug with INVALID_FILTER_FIELD', async () => {
        for (const field of ['id', 'status', 'createdAt', 'updatedAt', 'publishedAt', 'projectId', 'draftContent', 'deletedAt', 'version', 'price', '_sortOrder']) {
          const { status, body } = await error(`filter[${field}]=1`);
          expect(status, field).toBe(400);
          expect(body.error.code, field).toBe('INVALID_FILTER_FIELD');
        }
      });

      it('refuses unknown operators and malformed filter keys with 400 INVALID_QUERY', async () => {
        for (const q of ['filter[name][like]=a', 'filter[name][regex]=a', 'filter=a', 'filter[name=a']) {
          const { status, body } = await error(q);
          expect(status, q).toBe(400);
          expect(body.error.code, q).toBe('INVALID_QUERY');
        }
      });

      it('treats filter values as data, never as SQL', async () => {
        expect(await slugs(`filter[name]=${encodeURIComponent("Saw' OR '1'='1")}`)).toEqual([]);
        expect(await slugs(`filter[fields.sku][contains]=${encodeURIComponent("'; drop table collection_items; --")}`)).toEqual([]);
        expect(await slugs('filter[slug]=saw')).toEqual(['saw']);
      });
    });
  }
});
